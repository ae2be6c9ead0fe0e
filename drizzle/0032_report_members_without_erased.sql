-- Issue 33, item 12 (decision 068): an erased customer counts as a member on no day of the reports. Every statement
-- of the tallies (migrations 0022, 0028, 0029) now reads each order with its customer's mark (customer_totals.erased,
-- migration 0031) and leaves the windows of the erased out of window_starts, window_ends, memberships_ended and
-- memberships_renewed; their money, orders, first orders and payers stay. The erasure's write of the mark recounts the
-- customer: all their orders as erased (+1) and as not (-1), so only the window facts move.
CREATE OR REPLACE FUNCTION "report_tallies_statement"() RETURNS text LANGUAGE sql IMMUTABLE AS $f$ SELECT $q$
  WITH users AS (SELECT unnest($2::text[]) AS user_id),
  st AS (%s),
  paid AS (
    SELECT sign, user_id, id, created_at, package_price AS price, coalesce(paid_at, created_at) AS at,
           (coalesce(paid_at, created_at) AT TIME ZONE $1)::date AS day, subscr_id IS NOT NULL AS renewal,
           price_before IS NOT NULL AS discounted, coalesce(price_before - package_price, 0) AS discount
    FROM st WHERE payment_status = 'Paid'),
  firsts AS (
    SELECT DISTINCT ON (sign, user_id) sign, day FROM paid WHERE price > 0 ORDER BY sign, user_id, at, created_at, id),
  windows AS (
    SELECT sign, membership_starts AS s, membership_valid AS v,
           lead(membership_starts) OVER (PARTITION BY sign, user_id ORDER BY membership_starts, membership_valid) AS next
    -- An erased customer's windows are nobody's membership (decision 068): they count on no day.
    FROM st WHERE NOT erased AND membership_starts IS NOT NULL AND membership_valid IS NOT NULL),
  facts (day, revenue, paid_orders, given_orders, first_orders, window_starts, window_ends, memberships_ended,
         memberships_renewed, subscription_renewals, subscription_revenue, discounted_orders, discounts) AS (
    SELECT day, sign * price, CASE WHEN price > 0 THEN sign ELSE 0 END, CASE WHEN price = 0 THEN sign ELSE 0 END,
           0, 0, 0, 0, 0, CASE WHEN renewal AND price > 0 THEN sign ELSE 0 END,
           CASE WHEN renewal THEN sign * price ELSE 0 END, CASE WHEN discounted THEN sign ELSE 0 END,
           sign * discount FROM paid
    UNION ALL SELECT day, 0, 0, 0, sign, 0, 0, 0, 0, 0, 0, 0, 0 FROM firsts
    UNION ALL SELECT (s AT TIME ZONE $1)::date, 0, 0, 0, 0, sign, 0, 0, 0, 0, 0, 0, 0 FROM windows
    UNION ALL SELECT (v AT TIME ZONE $1)::date, 0, 0, 0, 0, 0, sign, 0, 0, 0, 0, 0, 0 FROM windows
    -- A membership ends where a window is not followed by the next at once; renewed when the next starts within 30 days.
    UNION ALL SELECT (v AT TIME ZONE $1)::date, 0, 0, 0, 0, 0, 0, sign,
                     CASE WHEN next <= v + interval '30 days' THEN sign ELSE 0 END, 0, 0, 0, 0
              FROM windows WHERE next IS NULL OR next > v),
  month_rows AS (
    INSERT INTO "report_months" ("month", "payers")
      SELECT month, sum(sign) FROM (
        SELECT DISTINCT sign, user_id, date_trunc('month', day)::date AS month FROM paid WHERE price > 0) m
      GROUP BY month HAVING sum(sign) <> 0 ORDER BY month
      ON CONFLICT ("month") DO UPDATE SET "payers" = "report_months"."payers" + excluded."payers")
  INSERT INTO "report_days" ("day", "revenue", "paid_orders", "given_orders", "first_orders", "window_starts",
                             "window_ends", "memberships_ended", "memberships_renewed", "subscription_renewals",
                             "subscription_revenue", "discounted_orders", "discounts")
    SELECT day, sum(revenue), sum(paid_orders), sum(given_orders), sum(first_orders), sum(window_starts),
           sum(window_ends), sum(memberships_ended), sum(memberships_renewed), sum(subscription_renewals),
           sum(subscription_revenue), sum(discounted_orders), sum(discounts)
    FROM facts GROUP BY day
    HAVING sum(revenue) <> 0 OR sum(paid_orders) <> 0 OR sum(given_orders) <> 0 OR sum(first_orders) <> 0
        OR sum(window_starts) <> 0 OR sum(window_ends) <> 0 OR sum(memberships_ended) <> 0
        OR sum(memberships_renewed) <> 0 OR sum(subscription_renewals) <> 0 OR sum(subscription_revenue) <> 0
        OR sum(discounted_orders) <> 0 OR sum(discounts) <> 0
    ORDER BY day
    ON CONFLICT ("day") DO UPDATE SET
      "revenue" = "report_days"."revenue" + excluded."revenue",
      "paid_orders" = "report_days"."paid_orders" + excluded."paid_orders",
      "given_orders" = "report_days"."given_orders" + excluded."given_orders",
      "first_orders" = "report_days"."first_orders" + excluded."first_orders",
      "window_starts" = "report_days"."window_starts" + excluded."window_starts",
      "window_ends" = "report_days"."window_ends" + excluded."window_ends",
      "memberships_ended" = "report_days"."memberships_ended" + excluded."memberships_ended",
      "memberships_renewed" = "report_days"."memberships_renewed" + excluded."memberships_renewed",
      "subscription_renewals" = "report_days"."subscription_renewals" + excluded."subscription_renewals",
      "subscription_revenue" = "report_days"."subscription_revenue" + excluded."subscription_revenue",
      "discounted_orders" = "report_days"."discounted_orders" + excluded."discounted_orders",
      "discounts" = "report_days"."discounts" + excluded."discounts"
$q$ $f$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "report_tallies_apply"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  zone text := coalesce((SELECT "time_zone" FROM "order_tally_zone"), 'UTC');
  cols text := 'user_id, id, payment_status, package_price, paid_at, created_at, membership_starts, membership_valid, subscr_id, price_before';
  facts text := 'payment_status, package_price, paid_at, created_at, membership_starts, membership_valid, subscr_id, price_before';
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
  -- Each row with its customer's erased mark (customer_totals.erased), which an order statement does not change.
  EXECUTE format(report_tallies_statement(),
                 format('SELECT x.*, coalesce(ct.erased, false) AS erased FROM (
                           SELECT 1 AS sign, %1$s FROM orders WHERE user_id IN (SELECT user_id FROM users)
                           UNION ALL %2$s) x
                         LEFT JOIN customer_totals ct ON ct.user_id = x.user_id',
                        cols, before))
    USING zone, users;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION "report_tallies_erased"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  zone text := coalesce((SELECT "time_zone" FROM "order_tally_zone"), 'UTC');
  cols text := 'o.user_id, o.id, o.payment_status, o.package_price, o.paid_at, o.created_at, o.membership_starts,
                o.membership_valid, o.subscr_id, o.price_before';
  users text[];
  before text;
  after text;
BEGIN
  IF TG_OP = 'INSERT' THEN
    -- A new row marked at once (an erased customer without figures yet): before it, not erased.
    SELECT array_agg(DISTINCT user_id ORDER BY user_id) INTO users FROM new_rows WHERE erased;
    after := 'SELECT 1 AS sign, %1$s, n.erased FROM orders o JOIN new_rows n ON n.user_id = o.user_id
              WHERE o.user_id IN (SELECT user_id FROM users)';
    before := 'SELECT -1, %1$s, false FROM orders o WHERE o.user_id IN (SELECT user_id FROM users)';
  ELSE
    -- Only the customers whose mark changed: the orders' own refreshes of the figures cost one comparison.
    SELECT array_agg(DISTINCT n.user_id ORDER BY n.user_id) INTO users
      FROM new_rows n JOIN old_rows p ON p.user_id = n.user_id WHERE n.erased IS DISTINCT FROM p.erased;
    after := 'SELECT 1 AS sign, %1$s, n.erased FROM orders o JOIN new_rows n ON n.user_id = o.user_id
              WHERE o.user_id IN (SELECT user_id FROM users)';
    before := 'SELECT -1, %1$s, p.erased FROM orders o JOIN old_rows p ON p.user_id = o.user_id
               WHERE o.user_id IN (SELECT user_id FROM users)';
  END IF;
  IF users IS NULL THEN RETURN NULL; END IF;
  PERFORM 1 FROM "user" WHERE id = ANY (users) ORDER BY id FOR NO KEY UPDATE;
  EXECUTE format(report_tallies_statement(), format(after || ' UNION ALL ' || before, cols)) USING zone, users;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "customer_totals_report_insert" AFTER INSERT ON "customer_totals" REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "report_tallies_erased"();--> statement-breakpoint
CREATE TRIGGER "customer_totals_report_update" AFTER UPDATE ON "customer_totals"
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "report_tallies_erased"();--> statement-breakpoint
CREATE OR REPLACE FUNCTION "report_tallies_rebuild"(zone text) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM "report_days";
  DELETE FROM "report_months";
  EXECUTE format(report_tallies_statement(),
                 'SELECT 1 AS sign, o.user_id, o.id, o.payment_status, o.package_price, o.paid_at, o.created_at,
                         o.membership_starts, o.membership_valid, o.subscr_id, o.price_before,
                         coalesce(ct.erased, false) AS erased
                  FROM orders o LEFT JOIN customer_totals ct ON ct.user_id = o.user_id')
    USING zone, ARRAY[]::text[];
END $$;
--> statement-breakpoint
-- Backfill: those erased before this migration leave the member counts of every day.
SELECT "report_tallies_rebuild"(coalesce((SELECT "time_zone" FROM "order_tally_zone"), 'UTC'));
