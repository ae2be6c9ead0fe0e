ALTER TABLE "subscribers" ADD COLUMN "state" text DEFAULT 'pending' NOT NULL;--> statement-breakpoint
ALTER TABLE "subscribers" ADD COLUMN "subscribed_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "subscribers" ADD COLUMN "confirmed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "subscribers" ADD COLUMN "unsubscribed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "subscribers" ADD COLUMN "confirm_token_hash" text;--> statement-breakpoint
ALTER TABLE "subscribers" ADD COLUMN "confirm_expires_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "subscribers" ADD COLUMN "confirm_sent_at" timestamp with time zone;--> statement-breakpoint
-- Existing subscribers stay subscribed: they become confirmed, subscribed and confirmed when they were stored.
UPDATE "subscribers" SET "state" = 'confirmed', "subscribed_at" = "created_at", "confirmed_at" = "created_at";--> statement-breakpoint
CREATE INDEX "subscribers_state_subscribed_idx" ON "subscribers" USING btree ("state","subscribed_at","id");--> statement-breakpoint
CREATE UNIQUE INDEX "subscribers_confirm_token_idx" ON "subscribers" USING btree ("confirm_token_hash") WHERE "subscribers"."confirm_token_hash" is not null;--> statement-breakpoint
ALTER TABLE "subscribers" ADD CONSTRAINT "subscribers_state_check" CHECK ("subscribers"."state" in ('confirmed', 'pending', 'unsubscribed'));