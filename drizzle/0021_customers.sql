CREATE TABLE "customer_notes" (
	"user_id" text PRIMARY KEY NOT NULL,
	"note" text NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "customer_totals" (
	"user_id" text PRIMARY KEY NOT NULL,
	"membership_ends" timestamp with time zone,
	"waiting" integer DEFAULT 0 NOT NULL,
	"paid_orders" integer DEFAULT 0 NOT NULL,
	"spent" numeric(12, 2) DEFAULT 0 NOT NULL,
	"orders" integer DEFAULT 0 NOT NULL,
	"last_order_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "payment_method" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "payment_reference" text;--> statement-breakpoint
ALTER TABLE "customer_notes" ADD CONSTRAINT "customer_notes_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "customer_totals" ADD CONSTRAINT "customer_totals_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "customer_totals_ends_idx" ON "customer_totals" USING btree ("membership_ends","user_id");--> statement-breakpoint
CREATE INDEX "customer_totals_spent_idx" ON "customer_totals" USING btree ("spent","user_id");--> statement-breakpoint
CREATE INDEX "customer_totals_waiting_idx" ON "customer_totals" USING btree ("user_id") WHERE "customer_totals"."waiting" > 0;--> statement-breakpoint
CREATE INDEX "orders_paid_at_idx" ON "orders" USING btree ("paid_at") WHERE "orders"."payment_status" = 'Paid';--> statement-breakpoint
CREATE INDEX "user_search_idx" ON "user" USING gin ((lower("name" || ' ' || "email")) gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "user_created_idx" ON "user" USING btree ("created_at","id");--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_payment_method_check" CHECK ("orders"."payment_method" in ('PayPal', 'Bank transfer', 'By hand', 'Gift'));--> statement-breakpoint
-- How each paid order was paid, for the orders paid before this column: PayPal's verified ones carry a transaction id;
-- the others were set Paid by the studio by hand.
UPDATE "orders" SET "payment_method" = CASE WHEN "txn_id" IS NOT NULL THEN 'PayPal' ELSE 'By hand' END
WHERE "paid_at" IS NOT NULL AND "payment_method" IS NULL;--> statement-breakpoint
-- customer_totals follow every change of orders in the same transaction (docs/decisions/039): one statement-level
-- trigger per event gathers the customers the statement touched and counts each one's row again from their orders
-- (the user_id index), so whoever writes orders (the commands, an operator's SQL, the bench's bulk insert) the list's
-- filters and sorts read the truth. The rows are locked in key order first: a second writer of the same customer waits
-- there, and its count (a later statement of this volatile function: a new snapshot) sees the first one's orders.
CREATE FUNCTION "customer_totals_refresh"(users text[]) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  IF users IS NULL OR cardinality(users) = 0 THEN RETURN; END IF;
  INSERT INTO "customer_totals" ("user_id") SELECT u FROM unnest(users) u ORDER BY u ON CONFLICT DO NOTHING;
  PERFORM 1 FROM "customer_totals" WHERE "user_id" = ANY (users) ORDER BY "user_id" FOR UPDATE;
  UPDATE "customer_totals" t SET
    "membership_ends" = a.ends, "waiting" = a.waiting, "paid_orders" = a.paid, "spent" = a.spent,
    "orders" = a.orders, "last_order_at" = a.last_order_at
  FROM (
    SELECT u AS user_id,
      max(o.membership_valid) FILTER (WHERE o.payment_status = 'Paid' AND o.order_status = 'Delivered') AS ends,
      count(o.id) FILTER (WHERE o.payment_status = 'Paid' AND o.order_status = 'Pending')::int AS waiting,
      count(o.id) FILTER (WHERE o.payment_status = 'Paid')::int AS paid,
      coalesce(sum(o.package_price) FILTER (WHERE o.payment_status = 'Paid'), 0) AS spent,
      count(o.id)::int AS orders,
      max(o.created_at) AS last_order_at
    FROM unnest(users) u LEFT JOIN "orders" o ON o.user_id = u
    GROUP BY u
  ) a
  WHERE t.user_id = a.user_id;
END $$;--> statement-breakpoint
CREATE FUNCTION "customer_totals_apply"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM "customer_totals_refresh"(ARRAY(SELECT DISTINCT user_id FROM new_rows));
  ELSIF TG_OP = 'DELETE' THEN
    PERFORM "customer_totals_refresh"(ARRAY(SELECT DISTINCT user_id FROM old_rows));
  ELSE
    -- Only the customers whose counted columns changed (an invoice number or a provider status changes nothing here).
    PERFORM "customer_totals_refresh"(ARRAY(
      SELECT o.user_id FROM old_rows o JOIN new_rows n ON n.id = o.id
      WHERE (o.user_id, o.payment_status, o.order_status, o.package_price, o.membership_valid, o.created_at)
        IS DISTINCT FROM (n.user_id, n.payment_status, n.order_status, n.package_price, n.membership_valid, n.created_at)
      UNION
      SELECT n.user_id FROM old_rows o JOIN new_rows n ON n.id = o.id WHERE n.user_id <> o.user_id));
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "orders_customer_totals_insert" AFTER INSERT ON "orders" REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "customer_totals_apply"();--> statement-breakpoint
CREATE TRIGGER "orders_customer_totals_update" AFTER UPDATE ON "orders" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "customer_totals_apply"();--> statement-breakpoint
CREATE TRIGGER "orders_customer_totals_delete" AFTER DELETE ON "orders" REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "customer_totals_apply"();--> statement-breakpoint
CREATE FUNCTION "customer_totals_truncate"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM "customer_totals";
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "orders_customer_totals_truncate" AFTER TRUNCATE ON "orders"
  FOR EACH STATEMENT EXECUTE FUNCTION "customer_totals_truncate"();--> statement-breakpoint
-- The customers who already have orders.
SELECT "customer_totals_refresh"(ARRAY(SELECT DISTINCT "user_id" FROM "orders"));
