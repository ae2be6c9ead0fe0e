ALTER TABLE "customer_totals" ADD COLUMN "latest_name" text;--> statement-breakpoint
ALTER TABLE "customer_totals" ADD COLUMN "erased" boolean DEFAULT false NOT NULL;--> statement-breakpoint
-- Issue 33, items 9 and 12 (decision 063): the figures also keep the name on each customer's latest order (their
-- display name when their account has none), and an erased customer's membership columns stay empty.
CREATE OR REPLACE FUNCTION "customer_totals_refresh"(users text[]) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  IF users IS NULL OR cardinality(users) = 0 THEN RETURN; END IF;
  INSERT INTO "customer_totals" ("user_id") SELECT u FROM unnest(users) u ORDER BY u ON CONFLICT DO NOTHING;
  PERFORM 1 FROM "customer_totals" WHERE "user_id" = ANY (users) ORDER BY "user_id" FOR UPDATE;
  UPDATE "customer_totals" t SET
    "membership_ends" = CASE WHEN t.erased THEN NULL ELSE a.ends END,
    "waiting" = CASE WHEN t.erased THEN 0 ELSE a.waiting END,
    "paid_orders" = a.paid, "spent" = a.spent, "orders" = a.orders, "last_order_at" = a.last_order_at,
    "latest_name" = a.latest_name
  FROM (
    SELECT u AS user_id,
      max(o.membership_valid) FILTER (WHERE o.payment_status = 'Paid' AND o.order_status = 'Delivered') AS ends,
      count(o.id) FILTER (WHERE o.payment_status = 'Paid' AND o.order_status = 'Pending')::int AS waiting,
      count(o.id) FILTER (WHERE o.payment_status = 'Paid')::int AS paid,
      coalesce(sum(o.package_price) FILTER (WHERE o.payment_status = 'Paid'), 0) AS spent,
      count(o.id)::int AS orders,
      max(o.created_at) AS last_order_at,
      (array_agg(nullif(trim(o.customer_name), '') ORDER BY o.created_at DESC, o.id DESC)
        FILTER (WHERE nullif(trim(o.customer_name), '') IS NOT NULL))[1] AS latest_name
    FROM unnest(users) u LEFT JOIN "orders" o ON o.user_id = u
    GROUP BY u
  ) a
  WHERE t.user_id = a.user_id;
END $$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION "customer_totals_apply"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM "customer_totals_refresh"(ARRAY(SELECT DISTINCT user_id FROM new_rows));
  ELSIF TG_OP = 'DELETE' THEN
    PERFORM "customer_totals_refresh"(ARRAY(SELECT DISTINCT user_id FROM old_rows));
  ELSE
    -- Only the customers whose counted columns changed (an invoice number or a provider status changes nothing here).
    PERFORM "customer_totals_refresh"(ARRAY(
      SELECT o.user_id FROM old_rows o JOIN new_rows n ON n.id = o.id
      WHERE (o.user_id, o.payment_status, o.order_status, o.package_price, o.membership_valid, o.created_at,
             o.customer_name)
        IS DISTINCT FROM (n.user_id, n.payment_status, n.order_status, n.package_price, n.membership_valid,
                          n.created_at, n.customer_name)
      UNION
      SELECT n.user_id FROM old_rows o JOIN new_rows n ON n.id = o.id WHERE n.user_id <> o.user_id));
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
-- Those erased before this migration (their address is the placeholder of domain/privacy.ts erasedEmail).
INSERT INTO "customer_totals" ("user_id", "erased")
  SELECT "id", true FROM "user" WHERE "email" LIKE '%@erased.invalid'
  ON CONFLICT ("user_id") DO UPDATE SET "erased" = true;--> statement-breakpoint
SELECT "customer_totals_refresh"(ARRAY(SELECT DISTINCT "user_id" FROM "orders"));
