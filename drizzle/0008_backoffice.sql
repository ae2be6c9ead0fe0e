-- Trigram search of orders by customer name or email (a trusted extension: a database owner may create it).
CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint
CREATE TABLE "settings" (
	"key" text PRIMARY KEY NOT NULL,
	"value" jsonb NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "activity_log_actor_created_idx" ON "activity_log" USING btree ("actor_email","created_at");--> statement-breakpoint
CREATE INDEX "activity_log_entity_created_idx" ON "activity_log" USING btree ("entity","created_at");--> statement-breakpoint
CREATE INDEX "orders_order_status_idx" ON "orders" USING btree ("order_status","created_at");--> statement-breakpoint
CREATE INDEX "orders_to_deliver_idx" ON "orders" USING btree ("created_at") WHERE "orders"."payment_status" = 'Paid' and "orders"."order_status" = 'Pending';--> statement-breakpoint
CREATE INDEX "orders_customer_search_idx" ON "orders" USING gin ((lower("customer_name" || ' ' || "customer_email")) gin_trgm_ops);