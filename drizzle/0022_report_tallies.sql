CREATE TABLE "report_days" (
	"day" date PRIMARY KEY NOT NULL,
	"revenue" numeric(14, 2) DEFAULT 0 NOT NULL,
	"paid_orders" integer DEFAULT 0 NOT NULL,
	"given_orders" integer DEFAULT 0 NOT NULL,
	"first_orders" integer DEFAULT 0 NOT NULL,
	"window_starts" integer DEFAULT 0 NOT NULL,
	"window_ends" integer DEFAULT 0 NOT NULL,
	"memberships_ended" integer DEFAULT 0 NOT NULL,
	"memberships_renewed" integer DEFAULT 0 NOT NULL
);--> statement-breakpoint
CREATE TABLE "report_months" (
	"month" date PRIMARY KEY NOT NULL,
	"payers" integer DEFAULT 0 NOT NULL
);--> statement-breakpoint
-- Report tallies (docs/decisions: "Reports read from day tallies kept by triggers"): per day of the site's time zone, what the reports read
-- (revenue, paid and given orders, customers' first paid orders, membership windows starting and ending, memberships
-- ending and renewed within 30 days); per month, the customers who paid in it. Kept by one statement-level trigger
-- per event on orders, in the writer's transaction. Some facts are a customer's, not an order's (which paid order is
-- their first, whether a window is followed by another): for each customer whose orders the statement changed, the
-- trigger takes the facts of all their orders now (+1) and as they were before the statement (-1) and adds the
-- difference, so facts of orders the statement did not touch cancel out. The customer's row is locked first (FOR NO
-- KEY UPDATE, in id order), so two statements on one customer's orders are counted one after the other, each from
-- what the other committed.
CREATE FUNCTION "report_tallies_statement"() RETURNS text LANGUAGE sql IMMUTABLE AS $f$ SELECT $q$
  WITH users AS (SELECT unnest($2::text[]) AS user_id),
  st AS (%s),
  paid AS (
    SELECT sign, user_id, id, created_at, package_price AS price, coalesce(paid_at, created_at) AS at,
           (coalesce(paid_at, created_at) AT TIME ZONE $1)::date AS day
    FROM st WHERE payment_status = 'Paid'),
  firsts AS (
    SELECT DISTINCT ON (sign, user_id) sign, day FROM paid WHERE price > 0 ORDER BY sign, user_id, at, created_at, id),
  windows AS (
    SELECT sign, membership_starts AS s, membership_valid AS v,
           lead(membership_starts) OVER (PARTITION BY sign, user_id ORDER BY membership_starts, membership_valid) AS next
    FROM st WHERE membership_starts IS NOT NULL AND membership_valid IS NOT NULL),
  facts (day, revenue, paid_orders, given_orders, first_orders, window_starts, window_ends, memberships_ended,
         memberships_renewed) AS (
    SELECT day, sign * price, CASE WHEN price > 0 THEN sign ELSE 0 END, CASE WHEN price = 0 THEN sign ELSE 0 END,
           0, 0, 0, 0, 0 FROM paid
    UNION ALL SELECT day, 0, 0, 0, sign, 0, 0, 0, 0 FROM firsts
    UNION ALL SELECT (s AT TIME ZONE $1)::date, 0, 0, 0, 0, sign, 0, 0, 0 FROM windows
    UNION ALL SELECT (v AT TIME ZONE $1)::date, 0, 0, 0, 0, 0, sign, 0, 0 FROM windows
    -- A membership ends where a window is not followed by the next at once; renewed when the next starts within 30 days.
    UNION ALL SELECT (v AT TIME ZONE $1)::date, 0, 0, 0, 0, 0, 0, sign,
                     CASE WHEN next <= v + interval '30 days' THEN sign ELSE 0 END
              FROM windows WHERE next IS NULL OR next > v),
  month_rows AS (
    INSERT INTO "report_months" ("month", "payers")
      SELECT month, sum(sign) FROM (
        SELECT DISTINCT sign, user_id, date_trunc('month', day)::date AS month FROM paid WHERE price > 0) m
      GROUP BY month HAVING sum(sign) <> 0 ORDER BY month
      ON CONFLICT ("month") DO UPDATE SET "payers" = "report_months"."payers" + excluded."payers")
  INSERT INTO "report_days" ("day", "revenue", "paid_orders", "given_orders", "first_orders", "window_starts",
                             "window_ends", "memberships_ended", "memberships_renewed")
    SELECT day, sum(revenue), sum(paid_orders), sum(given_orders), sum(first_orders), sum(window_starts),
           sum(window_ends), sum(memberships_ended), sum(memberships_renewed)
    FROM facts GROUP BY day
    HAVING sum(revenue) <> 0 OR sum(paid_orders) <> 0 OR sum(given_orders) <> 0 OR sum(first_orders) <> 0
        OR sum(window_starts) <> 0 OR sum(window_ends) <> 0 OR sum(memberships_ended) <> 0
        OR sum(memberships_renewed) <> 0
    ORDER BY day
    ON CONFLICT ("day") DO UPDATE SET
      "revenue" = "report_days"."revenue" + excluded."revenue",
      "paid_orders" = "report_days"."paid_orders" + excluded."paid_orders",
      "given_orders" = "report_days"."given_orders" + excluded."given_orders",
      "first_orders" = "report_days"."first_orders" + excluded."first_orders",
      "window_starts" = "report_days"."window_starts" + excluded."window_starts",
      "window_ends" = "report_days"."window_ends" + excluded."window_ends",
      "memberships_ended" = "report_days"."memberships_ended" + excluded."memberships_ended",
      "memberships_renewed" = "report_days"."memberships_renewed" + excluded."memberships_renewed"
$q$ $f$;
--> statement-breakpoint
CREATE FUNCTION "report_tallies_apply"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  zone text := coalesce((SELECT "time_zone" FROM "order_tally_zone"), 'UTC');
  cols text := 'user_id, id, payment_status, package_price, paid_at, created_at, membership_starts, membership_valid';
  facts text := 'payment_status, package_price, paid_at, created_at, membership_starts, membership_valid';
  users text[];
  before text;
BEGIN
  IF TG_OP = 'INSERT' THEN
    SELECT array_agg(DISTINCT user_id ORDER BY user_id) INTO users FROM new_rows;
    before := format('SELECT -1, %1$s FROM orders o WHERE user_id IN (SELECT user_id FROM users)
                        AND NOT EXISTS (SELECT 1 FROM new_rows x WHERE x.id = o.id)', cols);
  ELSIF TG_OP = 'DELETE' THEN
    SELECT array_agg(DISTINCT user_id ORDER BY user_id) INTO users FROM old_rows;
    before := format('SELECT -1, %1$s FROM orders WHERE user_id IN (SELECT user_id FROM users)
                      UNION ALL SELECT -1, %1$s FROM old_rows', cols);
  ELSE
    -- Only the customers whose reported columns changed: an update of anything else costs nothing more.
    EXECUTE format('SELECT array_agg(DISTINCT u ORDER BY u) FROM (
                      SELECT n.user_id AS u FROM new_rows n JOIN old_rows o USING (id)
                      WHERE (n.user_id, n.%1$s) IS DISTINCT FROM (o.user_id, o.%2$s)
                      UNION ALL SELECT o.user_id FROM new_rows n JOIN old_rows o USING (id) WHERE n.user_id <> o.user_id) c',
                   replace(facts, ', ', ', n.'), replace(facts, ', ', ', o.')) INTO users;
    before := format('SELECT -1, %1$s FROM orders o WHERE user_id IN (SELECT user_id FROM users)
                        AND NOT EXISTS (SELECT 1 FROM new_rows x WHERE x.id = o.id)
                      UNION ALL SELECT -1, %1$s FROM old_rows WHERE user_id IN (SELECT user_id FROM users)', cols);
  END IF;
  IF users IS NULL THEN RETURN NULL; END IF;
  PERFORM 1 FROM "user" WHERE id = ANY (users) ORDER BY id FOR NO KEY UPDATE;
  EXECUTE format(report_tallies_statement(),
                 format('SELECT 1 AS sign, %1$s FROM orders WHERE user_id IN (SELECT user_id FROM users) UNION ALL %2$s',
                        cols, before))
    USING zone, users;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION "report_tallies_rebuild"(zone text) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM "report_days";
  DELETE FROM "report_months";
  EXECUTE format(report_tallies_statement(),
                 'SELECT 1 AS sign, user_id, id, payment_status, package_price, paid_at, created_at, membership_starts,
                         membership_valid FROM orders')
    USING zone, ARRAY[]::text[];
END $$;
--> statement-breakpoint
CREATE FUNCTION "report_tallies_truncate"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM "report_days";
  DELETE FROM "report_months";
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "orders_report_insert" AFTER INSERT ON "orders" REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "report_tallies_apply"();--> statement-breakpoint
CREATE TRIGGER "orders_report_update" AFTER UPDATE ON "orders" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "report_tallies_apply"();--> statement-breakpoint
CREATE TRIGGER "orders_report_delete" AFTER DELETE ON "orders" REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "report_tallies_apply"();--> statement-breakpoint
CREATE TRIGGER "orders_report_truncate" AFTER TRUNCATE ON "orders"
  FOR EACH STATEMENT EXECUTE FUNCTION "report_tallies_truncate"();--> statement-breakpoint
-- Backfill: the orders already there, in the zone the other tallies were last counted in.
SELECT "report_tallies_rebuild"(coalesce((SELECT "time_zone" FROM "order_tally_zone"), 'UTC'));
