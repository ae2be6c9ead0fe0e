CREATE TABLE "tax_days" (
	"day" date NOT NULL,
	"currency" text NOT NULL,
	"country" text NOT NULL,
	"treatment" text NOT NULL,
	"rate" integer NOT NULL,
	"sales" integer DEFAULT 0 NOT NULL,
	"net_cents" bigint DEFAULT 0 NOT NULL,
	"tax_cents" bigint DEFAULT 0 NOT NULL,
	"refunds" integer DEFAULT 0 NOT NULL,
	"refunded_net_cents" bigint DEFAULT 0 NOT NULL,
	"refunded_tax_cents" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "tax_days_day_currency_country_treatment_rate_pk" PRIMARY KEY("day","currency","country","treatment","rate")
);
--> statement-breakpoint
-- The tax report (issue 35, part 6): tax_days, one row per day of the site's zone, currency, country, treatment and
-- rate. A sale is an invoice issued (orders.invoiced_at, the tax point; decision 038: kept after a refund and after a
-- payment set back to UnPaid, so the sale stays until a credit note corrects it), valued at the order's net
-- (package_price * 100 - tax_cents) and VAT (tax_cents). A refund is a credit note issued (credit_notes.issued_at), its
-- net (gross_cents - tax_cents) and VAT, in its currency at its rate, under its order's country and treatment.
-- The country: the order's tax country when VAT was charged, else the buyer's code (customer_country_code), '' when
-- neither is known. Each fact is a row's alone (no customer's other orders), so the triggers add the changed rows'
-- facts (+1) and take back their old ones (-1), no lock needed beyond the upserted rows (taken in key order).
CREATE FUNCTION "tax_tallies_statement"() RETURNS text LANGUAGE sql IMMUTABLE AS $f$ SELECT $q$
  WITH facts (sign, day, currency, country, treatment, rate, sale, net, tax, refund, refunded_net, refunded_tax) AS (%s)
  INSERT INTO "tax_days" ("day", "currency", "country", "treatment", "rate", "sales", "net_cents", "tax_cents",
                          "refunds", "refunded_net_cents", "refunded_tax_cents")
    SELECT day, currency, country, treatment, rate, sum(sign * sale), sum(sign * net), sum(sign * tax),
           sum(sign * refund), sum(sign * refunded_net), sum(sign * refunded_tax)
    FROM facts GROUP BY day, currency, country, treatment, rate
    HAVING sum(sign * sale) <> 0 OR sum(sign * net) <> 0 OR sum(sign * tax) <> 0 OR sum(sign * refund) <> 0
        OR sum(sign * refunded_net) <> 0 OR sum(sign * refunded_tax) <> 0
    ORDER BY day, currency, country, treatment, rate
    ON CONFLICT ("day", "currency", "country", "treatment", "rate") DO UPDATE SET
      "sales" = "tax_days"."sales" + excluded."sales",
      "net_cents" = "tax_days"."net_cents" + excluded."net_cents",
      "tax_cents" = "tax_days"."tax_cents" + excluded."tax_cents",
      "refunds" = "tax_days"."refunds" + excluded."refunds",
      "refunded_net_cents" = "tax_days"."refunded_net_cents" + excluded."refunded_net_cents",
      "refunded_tax_cents" = "tax_days"."refunded_tax_cents" + excluded."refunded_tax_cents"
$q$ $f$;
--> statement-breakpoint
-- The facts of a set of orders (%1$s, alias o) with a sign (%2$s): their invoices, and the credit notes issued on them.
CREATE FUNCTION "tax_tallies_facts"(orders_of text, sign int) RETURNS text LANGUAGE sql IMMUTABLE AS $f$ SELECT format($q$
  SELECT %2$s, (o.invoiced_at AT TIME ZONE $1)::date, o.currency, coalesce(o.tax_country, o.customer_country_code, ''),
         o.tax_treatment, o.tax_rate, 1, round(o.package_price * 100)::bigint - o.tax_cents, o.tax_cents::bigint,
         0, 0::bigint, 0::bigint
  FROM %1$s o WHERE o.invoiced_at IS NOT NULL
  UNION ALL
  SELECT %2$s, (c.issued_at AT TIME ZONE $1)::date, c.currency, coalesce(o.tax_country, o.customer_country_code, ''),
         o.tax_treatment, c.tax_rate, 0, 0::bigint, 0::bigint, 1, (c.gross_cents - c.tax_cents)::bigint,
         c.tax_cents::bigint
  FROM %1$s o JOIN credit_notes c ON c.order_id = o.id
$q$, orders_of, sign) $f$;
--> statement-breakpoint
-- The facts of a set of credit notes (%1$s, alias c) with a sign, under their orders' country and treatment.
CREATE FUNCTION "tax_tallies_credit_facts"(notes_of text, sign int) RETURNS text LANGUAGE sql IMMUTABLE AS $f$ SELECT format($q$
  SELECT %2$s, (c.issued_at AT TIME ZONE $1)::date, c.currency, coalesce(o.tax_country, o.customer_country_code, ''),
         o.tax_treatment, c.tax_rate, 0, 0::bigint, 0::bigint, 1, (c.gross_cents - c.tax_cents)::bigint,
         c.tax_cents::bigint
  FROM %1$s c JOIN orders o ON o.id = c.order_id
$q$, notes_of, sign) $f$;
--> statement-breakpoint
CREATE FUNCTION "tax_tallies_orders"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  zone text := coalesce((SELECT "time_zone" FROM "order_tally_zone"), 'UTC');
  changed uuid[];
BEGIN
  IF TG_OP = 'INSERT' THEN
    -- A new order has no credit note yet (the note points at it): only its invoice, if it is born invoiced.
    IF NOT EXISTS (SELECT 1 FROM new_rows WHERE invoiced_at IS NOT NULL) THEN RETURN NULL; END IF;
    EXECUTE format(tax_tallies_statement(), tax_tallies_facts('new_rows', 1)) USING zone;
  ELSIF TG_OP = 'DELETE' THEN
    -- An order with a credit note cannot be deleted (the note's key restricts it): only invoices go.
    IF NOT EXISTS (SELECT 1 FROM old_rows WHERE invoiced_at IS NOT NULL) THEN RETURN NULL; END IF;
    EXECUTE format(tax_tallies_statement(), tax_tallies_facts('old_rows', -1)) USING zone;
  ELSE
    -- Only the orders whose reported columns changed: an update of anything else costs one comparison.
    SELECT array_agg(n.id ORDER BY n.id) INTO changed FROM new_rows n JOIN old_rows o USING (id)
      WHERE (n.invoiced_at, n.currency, n.tax_country, n.customer_country_code, n.tax_treatment, n.tax_rate,
             n.package_price, n.tax_cents)
            IS DISTINCT FROM (o.invoiced_at, o.currency, o.tax_country, o.customer_country_code, o.tax_treatment,
                              o.tax_rate, o.package_price, o.tax_cents);
    IF changed IS NULL THEN RETURN NULL; END IF;
    EXECUTE format(tax_tallies_statement(),
                   tax_tallies_facts('(SELECT * FROM new_rows WHERE id = ANY ($2))', 1) || ' UNION ALL ' ||
                   tax_tallies_facts('(SELECT * FROM old_rows WHERE id = ANY ($2))', -1))
      USING zone, changed;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION "tax_tallies_credit_notes"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  zone text := coalesce((SELECT "time_zone" FROM "order_tally_zone"), 'UTC');
BEGIN
  IF TG_OP = 'INSERT' THEN
    EXECUTE format(tax_tallies_statement(), tax_tallies_credit_facts('new_rows', 1)) USING zone;
  ELSIF TG_OP = 'DELETE' THEN
    EXECUTE format(tax_tallies_statement(), tax_tallies_credit_facts('old_rows', -1)) USING zone;
  ELSE
    EXECUTE format(tax_tallies_statement(),
                   tax_tallies_credit_facts('new_rows', 1) || ' UNION ALL ' || tax_tallies_credit_facts('old_rows', -1))
      USING zone;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "orders_tax_insert" AFTER INSERT ON "orders" REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "tax_tallies_orders"();--> statement-breakpoint
CREATE TRIGGER "orders_tax_update" AFTER UPDATE ON "orders" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "tax_tallies_orders"();--> statement-breakpoint
CREATE TRIGGER "orders_tax_delete" AFTER DELETE ON "orders" REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "tax_tallies_orders"();--> statement-breakpoint
CREATE TRIGGER "credit_notes_tax_insert" AFTER INSERT ON "credit_notes" REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "tax_tallies_credit_notes"();--> statement-breakpoint
CREATE TRIGGER "credit_notes_tax_update" AFTER UPDATE ON "credit_notes"
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "tax_tallies_credit_notes"();--> statement-breakpoint
CREATE TRIGGER "credit_notes_tax_delete" AFTER DELETE ON "credit_notes" REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "tax_tallies_credit_notes"();--> statement-breakpoint
-- The rebuild: the backfill below, and server/services/orders/tallies.ts ensureZone when the site's zone changes.
CREATE FUNCTION "tax_tallies_rebuild"(zone text) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM "tax_days";
  EXECUTE format(tax_tallies_statement(), tax_tallies_facts('orders', 1)) USING zone;
END $$;
--> statement-breakpoint
SELECT "tax_tallies_rebuild"(coalesce((SELECT "time_zone" FROM "order_tally_zone"), 'UTC'));
