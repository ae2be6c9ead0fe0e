CREATE TABLE "payment_checkouts" (
	"id" text PRIMARY KEY NOT NULL,
	"provider" text NOT NULL,
	"order_id" uuid NOT NULL,
	"request_id" text NOT NULL,
	"status" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "payment_notices" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"provider" text NOT NULL,
	"event_id" text,
	"claimed_event_id" text,
	"event_type" text,
	"notice_type" text,
	"order_id" uuid,
	"amount" numeric(12, 2),
	"currency" text,
	"verdict" text NOT NULL,
	"outcome" text NOT NULL,
	"reason" text NOT NULL,
	"raw" text NOT NULL,
	"headers" jsonb NOT NULL,
	"times_received" integer DEFAULT 1 NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "payment_checkouts_order_idx" ON "payment_checkouts" USING btree ("order_id");--> statement-breakpoint
CREATE INDEX "payment_checkouts_open_idx" ON "payment_checkouts" USING btree ("created_at") WHERE "payment_checkouts"."status" = 'created';--> statement-breakpoint
CREATE UNIQUE INDEX "payment_notices_event_idx" ON "payment_notices" USING btree ("provider","event_id");--> statement-breakpoint
CREATE INDEX "payment_notices_order_idx" ON "payment_notices" USING btree ("order_id","received_at");--> statement-breakpoint
CREATE INDEX "payment_notices_outcome_idx" ON "payment_notices" USING btree ("outcome","received_at");