CREATE TABLE "order_month_counts" (
	"month" date NOT NULL,
	"payment_status" text NOT NULL,
	"order_status" text NOT NULL,
	"n" integer NOT NULL,
	CONSTRAINT "order_month_counts_month_payment_status_order_status_pk" PRIMARY KEY("month","payment_status","order_status")
);--> statement-breakpoint
-- Month counts beside the day counts (docs/decisions/026, addendum), kept by the same statement-level triggers in the
-- same transaction, with the same delta upserts in key order. The function of migration 0010, written once for all
-- three events: each event only names its changed rows (the statement's transition tables, which the dynamic
-- statements below read like any table), and every tally is one upsert over them.
CREATE OR REPLACE FUNCTION "order_tallies_apply"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  zone text := coalesce((SELECT "time_zone" FROM "order_tally_zone"), 'UTC');
  cols text := 'payment_status, order_status, package_price, paid_at, created_at';
  changes text := CASE TG_OP
    WHEN 'INSERT' THEN format('SELECT 1 AS sign, %s FROM new_rows', cols)
    WHEN 'DELETE' THEN format('SELECT -1 AS sign, %s FROM old_rows', cols)
    ELSE format('SELECT 1 AS sign, %s FROM new_rows UNION ALL SELECT -1, %s FROM old_rows', cols, cols)
  END;
BEGIN
  EXECUTE format($q$
    WITH changes AS (%s)
    INSERT INTO "order_day_counts" ("day", "payment_status", "order_status", "n")
      SELECT (created_at AT TIME ZONE $1)::date, payment_status, order_status, sum(sign)
      FROM changes GROUP BY 1, 2, 3 HAVING sum(sign) <> 0 ORDER BY 1, 2, 3
      ON CONFLICT ("day", "payment_status", "order_status")
      DO UPDATE SET "n" = "order_day_counts"."n" + excluded."n"$q$, changes) USING zone;
  EXECUTE format($q$
    WITH changes AS (%s)
    INSERT INTO "order_month_counts" ("month", "payment_status", "order_status", "n")
      SELECT date_trunc('month', created_at AT TIME ZONE $1)::date, payment_status, order_status, sum(sign)
      FROM changes GROUP BY 1, 2, 3 HAVING sum(sign) <> 0 ORDER BY 1, 2, 3
      ON CONFLICT ("month", "payment_status", "order_status")
      DO UPDATE SET "n" = "order_month_counts"."n" + excluded."n"$q$, changes) USING zone;
  EXECUTE format($q$
    WITH changes AS (%s)
    INSERT INTO "order_sales_months" ("month", "amount", "orders")
      SELECT date_trunc('month', coalesce(paid_at, created_at) AT TIME ZONE $1)::date, sum(sign * package_price),
             sum(sign)
      FROM changes WHERE payment_status = 'Paid'
      GROUP BY 1 HAVING sum(sign) <> 0 OR sum(sign * package_price) <> 0 ORDER BY 1
      ON CONFLICT ("month")
      DO UPDATE SET "amount" = "order_sales_months"."amount" + excluded."amount",
                    "orders" = "order_sales_months"."orders" + excluded."orders"$q$, changes) USING zone;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "order_tallies_truncate"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM "order_day_counts";
  DELETE FROM "order_month_counts";
  DELETE FROM "order_sales_months";
  RETURN NULL;
END $$;
--> statement-breakpoint
-- Backfill from the day counts (the same time zone, no scan of orders); taken under a lock that keeps orders still
-- meanwhile, so no change falls between the two.
LOCK TABLE "orders" IN SHARE ROW EXCLUSIVE MODE;--> statement-breakpoint
INSERT INTO "order_month_counts" ("month", "payment_status", "order_status", "n")
  SELECT date_trunc('month', "day")::date, payment_status, order_status, sum(n)
  FROM "order_day_counts" GROUP BY 1, 2, 3 HAVING sum(n) <> 0;
