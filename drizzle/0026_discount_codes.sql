CREATE TABLE "discount_codes" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"code" text NOT NULL,
	"kind" text NOT NULL,
	"value" numeric(10, 2) NOT NULL,
	"valid_from" date,
	"valid_to" date,
	"max_uses" integer,
	"once_per_customer" boolean DEFAULT false NOT NULL,
	"package_ids" uuid[] DEFAULT '{}'::uuid[] NOT NULL,
	"period" text DEFAULT 'first' NOT NULL,
	"note" text DEFAULT '' NOT NULL,
	"disabled_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "discount_codes_code_unique" UNIQUE("code"),
	CONSTRAINT "discount_codes_kind_check" CHECK ("discount_codes"."kind" in ('percent', 'amount')),
	CONSTRAINT "discount_codes_period_check" CHECK ("discount_codes"."period" in ('first', 'every')),
	CONSTRAINT "discount_codes_value_check" CHECK ("discount_codes"."value" > 0 and ("discount_codes"."kind" = 'amount' or "discount_codes"."value" <= 100)),
	CONSTRAINT "discount_codes_uses_check" CHECK ("discount_codes"."max_uses" is null or "discount_codes"."max_uses" >= 1),
	CONSTRAINT "discount_codes_dates_check" CHECK ("discount_codes"."valid_from" is null or "discount_codes"."valid_to" is null or "discount_codes"."valid_to" >= "discount_codes"."valid_from")
);
--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "discount_code" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "discount_code_id" uuid;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "price_before" numeric(10, 2);--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "discount_amount" numeric(10, 2) DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX "discount_codes_created_idx" ON "discount_codes" USING btree ("created_at","id");--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_discount_code_id_discount_codes_id_fk" FOREIGN KEY ("discount_code_id") REFERENCES "public"."discount_codes"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "orders_discount_code_idx" ON "orders" USING btree ("discount_code_id","user_id") WHERE "orders"."discount_code_id" is not null;--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_discount_check" CHECK ("orders"."discount_amount" >= 0 and ("orders"."discount_code_id" is null) = ("orders"."price_before" is null) and ("orders"."price_before" is null or "orders"."price_before" = "orders"."package_price" + "orders"."discount_amount"));