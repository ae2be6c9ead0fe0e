CREATE TABLE "order_day_counts" (
	"day" date NOT NULL,
	"payment_status" text NOT NULL,
	"order_status" text NOT NULL,
	"n" integer NOT NULL,
	CONSTRAINT "order_day_counts_day_payment_status_order_status_pk" PRIMARY KEY("day","payment_status","order_status")
);
--> statement-breakpoint
CREATE TABLE "order_sales_months" (
	"month" date PRIMARY KEY NOT NULL,
	"amount" numeric(14, 2) NOT NULL,
	"orders" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "order_tally_zone" (
	"one" boolean PRIMARY KEY DEFAULT true NOT NULL,
	"time_zone" text NOT NULL,
	CONSTRAINT "order_tally_zone_one" CHECK ("order_tally_zone"."one")
);
--> statement-breakpoint
-- The orders desk filtered by both statuses: any pair, even one no order has, is one range in the list's order.
CREATE INDEX "orders_statuses_idx" ON "orders" USING btree ("payment_status","order_status","created_at");--> statement-breakpoint
-- The tallies follow every change of orders in the same transaction (docs/decisions/026-maintained-order-tallies.md):
-- one statement-level trigger per event reads the statement's transition tables, so a bulk insert of a million rows
-- costs one aggregate, not a million row triggers. The upserts add deltas (no read-modify-write: two transactions
-- never lose an update; the second waits for the first's row lock, then adds to the committed value) in key order
-- (two statements never deadlock on each other's rows). Days and months are the site's (order_tally_zone). Rows per day and per month: concurrent writers touch the
-- same row only for orders of the same day and statuses.
CREATE FUNCTION "order_tallies_apply"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  zone text := coalesce((SELECT "time_zone" FROM "order_tally_zone"), 'UTC');
BEGIN
  IF TG_OP = 'INSERT' THEN
    WITH changes AS (SELECT 1 AS sign, payment_status, order_status, package_price, paid_at, created_at FROM new_rows)
    INSERT INTO "order_day_counts" ("day", "payment_status", "order_status", "n")
      SELECT (created_at AT TIME ZONE zone)::date, payment_status, order_status, sum(sign)
      FROM changes GROUP BY 1, 2, 3 HAVING sum(sign) <> 0 ORDER BY 1, 2, 3
      ON CONFLICT ("day", "payment_status", "order_status")
      DO UPDATE SET "n" = "order_day_counts"."n" + excluded."n";
    WITH changes AS (SELECT 1 AS sign, payment_status, order_status, package_price, paid_at, created_at FROM new_rows)
    INSERT INTO "order_sales_months" ("month", "amount", "orders")
      SELECT date_trunc('month', coalesce(paid_at, created_at) AT TIME ZONE zone)::date, sum(sign * package_price),
             sum(sign)
      FROM changes WHERE payment_status = 'Paid'
      GROUP BY 1 HAVING sum(sign) <> 0 OR sum(sign * package_price) <> 0 ORDER BY 1
      ON CONFLICT ("month")
      DO UPDATE SET "amount" = "order_sales_months"."amount" + excluded."amount",
                    "orders" = "order_sales_months"."orders" + excluded."orders";
  ELSIF TG_OP = 'DELETE' THEN
    WITH changes AS (SELECT -1 AS sign, payment_status, order_status, package_price, paid_at, created_at FROM old_rows)
    INSERT INTO "order_day_counts" ("day", "payment_status", "order_status", "n")
      SELECT (created_at AT TIME ZONE zone)::date, payment_status, order_status, sum(sign)
      FROM changes GROUP BY 1, 2, 3 HAVING sum(sign) <> 0 ORDER BY 1, 2, 3
      ON CONFLICT ("day", "payment_status", "order_status")
      DO UPDATE SET "n" = "order_day_counts"."n" + excluded."n";
    WITH changes AS (SELECT -1 AS sign, payment_status, order_status, package_price, paid_at, created_at FROM old_rows)
    INSERT INTO "order_sales_months" ("month", "amount", "orders")
      SELECT date_trunc('month', coalesce(paid_at, created_at) AT TIME ZONE zone)::date, sum(sign * package_price),
             sum(sign)
      FROM changes WHERE payment_status = 'Paid'
      GROUP BY 1 HAVING sum(sign) <> 0 OR sum(sign * package_price) <> 0 ORDER BY 1
      ON CONFLICT ("month")
      DO UPDATE SET "amount" = "order_sales_months"."amount" + excluded."amount",
                    "orders" = "order_sales_months"."orders" + excluded."orders";
  ELSE
    WITH changes AS (SELECT 1 AS sign, payment_status, order_status, package_price, paid_at, created_at FROM new_rows UNION ALL SELECT -1, payment_status, order_status, package_price, paid_at, created_at FROM old_rows)
    INSERT INTO "order_day_counts" ("day", "payment_status", "order_status", "n")
      SELECT (created_at AT TIME ZONE zone)::date, payment_status, order_status, sum(sign)
      FROM changes GROUP BY 1, 2, 3 HAVING sum(sign) <> 0 ORDER BY 1, 2, 3
      ON CONFLICT ("day", "payment_status", "order_status")
      DO UPDATE SET "n" = "order_day_counts"."n" + excluded."n";
    WITH changes AS (SELECT 1 AS sign, payment_status, order_status, package_price, paid_at, created_at FROM new_rows UNION ALL SELECT -1, payment_status, order_status, package_price, paid_at, created_at FROM old_rows)
    INSERT INTO "order_sales_months" ("month", "amount", "orders")
      SELECT date_trunc('month', coalesce(paid_at, created_at) AT TIME ZONE zone)::date, sum(sign * package_price),
             sum(sign)
      FROM changes WHERE payment_status = 'Paid'
      GROUP BY 1 HAVING sum(sign) <> 0 OR sum(sign * package_price) <> 0 ORDER BY 1
      ON CONFLICT ("month")
      DO UPDATE SET "amount" = "order_sales_months"."amount" + excluded."amount",
                    "orders" = "order_sales_months"."orders" + excluded."orders";
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION "order_tallies_truncate"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM "order_day_counts";
  DELETE FROM "order_sales_months";
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "orders_tally_insert" AFTER INSERT ON "orders" REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "order_tallies_apply"();--> statement-breakpoint
CREATE TRIGGER "orders_tally_update" AFTER UPDATE ON "orders" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "order_tallies_apply"();--> statement-breakpoint
CREATE TRIGGER "orders_tally_delete" AFTER DELETE ON "orders" REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "order_tallies_apply"();--> statement-breakpoint
CREATE TRIGGER "orders_tally_truncate" AFTER TRUNCATE ON "orders"
  FOR EACH STATEMENT EXECUTE FUNCTION "order_tallies_truncate"();--> statement-breakpoint
-- Backfill: the orders already there, tallied in UTC (the app tallies again in its own time zone at start).
INSERT INTO "order_tally_zone" ("one", "time_zone") VALUES (true, 'UTC');--> statement-breakpoint
INSERT INTO "order_day_counts" ("day", "payment_status", "order_status", "n")
  SELECT (created_at AT TIME ZONE 'UTC')::date, payment_status, order_status, count(*)
  FROM "orders" GROUP BY 1, 2, 3;--> statement-breakpoint
INSERT INTO "order_sales_months" ("month", "amount", "orders")
  SELECT date_trunc('month', coalesce(paid_at, created_at) AT TIME ZONE 'UTC')::date, sum(package_price), count(*)
  FROM "orders" WHERE payment_status = 'Paid' GROUP BY 1;
