CREATE TABLE "orders" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" text NOT NULL,
	"package_id" uuid,
	"package_name" text NOT NULL,
	"package_price" numeric(10, 2) NOT NULL,
	"package_validity" integer NOT NULL,
	"customer_email" text NOT NULL,
	"customer_name" text NOT NULL,
	"customer_address" text NOT NULL,
	"customer_country" text NOT NULL,
	"payment_status" text DEFAULT 'UnPaid' NOT NULL,
	"order_status" text DEFAULT 'Pending' NOT NULL,
	"order_date" text NOT NULL,
	"membership_valid" timestamp with time zone,
	"txn_id" text,
	"provider_status" text,
	"paid_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "orders_txn_id_unique" UNIQUE("txn_id"),
	CONSTRAINT "orders_payment_status_check" CHECK ("orders"."payment_status" in ('UnPaid', 'Paid', 'Cancelled', 'Refunded')),
	CONSTRAINT "orders_order_status_check" CHECK ("orders"."order_status" in ('Pending', 'Delivered')),
	CONSTRAINT "orders_price_check" CHECK ("orders"."package_price" >= 0),
	CONSTRAINT "orders_validity_check" CHECK ("orders"."package_validity" >= 1)
);
--> statement-breakpoint
CREATE TABLE "payment_accounts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"paypal_email" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "payment_events" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL,
	"raw" text NOT NULL,
	"txn_id" text,
	"payment_status" text,
	"order_id" uuid,
	"outcome" text NOT NULL,
	"reason" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "paypal_simulator_messages" (
	"digest" text PRIMARY KEY NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "orders_user_created_idx" ON "orders" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "orders_created_idx" ON "orders" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "orders_payment_status_idx" ON "orders" USING btree ("payment_status","created_at");--> statement-breakpoint
CREATE INDEX "payment_events_order_idx" ON "payment_events" USING btree ("order_id","received_at");--> statement-breakpoint
CREATE INDEX "payment_events_txn_idx" ON "payment_events" USING btree ("txn_id");