DROP INDEX "orders_discount_code_idx";--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "discount_period" text;--> statement-breakpoint
-- Orders placed with a code before this column: the code's period now (none of them is subscribed: decision 049 paid them once).
UPDATE "orders" SET "discount_period" = "discount_codes"."period" FROM "discount_codes" WHERE "orders"."discount_code_id" = "discount_codes"."id";--> statement-breakpoint
CREATE INDEX "orders_discount_code_idx" ON "orders" USING btree ("discount_code_id","user_id") WHERE "orders"."discount_code_id" is not null and "orders"."subscr_id" is null;--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_discount_period_check" CHECK (("orders"."discount_code_id" is null) = ("orders"."discount_period" is null) and ("orders"."discount_period" is null or "orders"."discount_period" in ('first', 'every')));