CREATE TABLE "membership_recompute" (
	"user_id" text PRIMARY KEY NOT NULL
);
--> statement-breakpoint
CREATE TABLE "number_sequences" (
	"scope" text PRIMARY KEY NOT NULL,
	"last" integer NOT NULL
);
--> statement-breakpoint
DROP INDEX "orders_customer_search_idx";--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "number" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "membership_starts" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "delivered_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "idempotency_key" text;--> statement-breakpoint
-- Existing orders get their numbers in the order they were placed, counted per year of the site's time zone (the zone
-- the order tallies use), and each year's counter continues from there (domain/order-number.ts formats the same way).
CREATE TEMPORARY TABLE "numbered" ON COMMIT DROP AS
  SELECT o.id, extract(year FROM o.created_at AT TIME ZONE z.tz)::int AS year,
         row_number() OVER (PARTITION BY extract(year FROM o.created_at AT TIME ZONE z.tz) ORDER BY o.created_at, o.id) AS seq
  FROM "orders" o, (SELECT coalesce((SELECT "time_zone" FROM "order_tally_zone"), 'UTC') AS tz) z;--> statement-breakpoint
UPDATE "orders" SET "number" = 'AN-' || n.year || '-' || lpad(n.seq::text, greatest(5, length(n.seq::text)), '0'),
  -- A delivered order's membership started with its payment under the old rule: its delivery is taken as then.
  "delivered_at" = CASE WHEN "orders"."order_status" = 'Delivered' THEN coalesce("orders"."paid_at", "orders"."created_at") END
  FROM "numbered" n WHERE "orders"."id" = n.id;--> statement-breakpoint
INSERT INTO "number_sequences" ("scope", "last") SELECT 'order:' || year, max(seq) FROM "numbered" GROUP BY year;--> statement-breakpoint
-- Every customer's membership timeline is recomputed once by the new rule at the next start (orders/commands.ts).
INSERT INTO "membership_recompute" ("user_id") SELECT DISTINCT "user_id" FROM "orders";--> statement-breakpoint
ALTER TABLE "orders" ALTER COLUMN "number" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_number_unique" UNIQUE("number");--> statement-breakpoint
CREATE UNIQUE INDEX "orders_idempotency_idx" ON "orders" USING btree ("user_id","idempotency_key");--> statement-breakpoint
CREATE INDEX "orders_customer_search_idx" ON "orders" USING gin ((lower("customer_name" || ' ' || "customer_email" || ' ' || "number")) gin_trgm_ops);
