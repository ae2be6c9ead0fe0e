CREATE TABLE "payment_plans" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"provider" text NOT NULL,
	"package_id" uuid NOT NULL,
	"interval_unit" text NOT NULL,
	"interval_count" integer NOT NULL,
	"currency" text NOT NULL,
	"amount" numeric(12, 2) NOT NULL,
	"first_payment" numeric(12, 2),
	"product_id" text NOT NULL,
	"plan_id" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "payment_plans_terms_key" UNIQUE NULLS NOT DISTINCT("provider","package_id","interval_unit","interval_count","currency","amount","first_payment")
);
--> statement-breakpoint
ALTER TABLE "payment_checkouts" ADD COLUMN "kind" text DEFAULT 'order' NOT NULL;--> statement-breakpoint
ALTER TABLE "payment_notices" ADD COLUMN "subscription_id" text;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD COLUMN "rail" text DEFAULT 'standard' NOT NULL;--> statement-breakpoint
CREATE INDEX "payment_notices_subscription_idx" ON "payment_notices" USING btree ("subscription_id") WHERE "payment_notices"."subscription_id" is not null;--> statement-breakpoint
ALTER TABLE "payment_checkouts" ADD CONSTRAINT "payment_checkouts_kind_check" CHECK ("payment_checkouts"."kind" in ('order', 'subscription'));--> statement-breakpoint
ALTER TABLE "subscriptions" ADD CONSTRAINT "subscriptions_rail_check" CHECK ("subscriptions"."rail" in ('standard', 'api'));