ALTER TABLE "orders" ADD COLUMN "invoice_number" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "invoiced_at" timestamp with time zone;--> statement-breakpoint
-- Orders already paid for money (still Paid, or Refunded since: money was received) are invoiced in the order they
-- were paid, per year of the site's time zone (the zone the order tallies and 0014 use), each year's invoice counter
-- continuing from there; the invoice's date is the payment's (domain/invoice-number.ts formats the same way).
CREATE TEMPORARY TABLE "invoiced" ON COMMIT DROP AS
  SELECT o.id, o.paid_at, extract(year FROM o.paid_at AT TIME ZONE z.tz)::int AS year,
         row_number() OVER (PARTITION BY extract(year FROM o.paid_at AT TIME ZONE z.tz) ORDER BY o.paid_at, o.created_at, o.id) AS seq
  FROM "orders" o, (SELECT coalesce((SELECT "time_zone" FROM "order_tally_zone"), 'UTC') AS tz) z
  WHERE o.paid_at IS NOT NULL AND o.package_price > 0 AND o.payment_status IN ('Paid', 'Refunded');--> statement-breakpoint
UPDATE "orders" SET "invoice_number" = 'INV-' || i.year || '-' || lpad(i.seq::text, greatest(5, length(i.seq::text)), '0'),
  "invoiced_at" = i.paid_at
  FROM "invoiced" i WHERE "orders"."id" = i.id;--> statement-breakpoint
INSERT INTO "number_sequences" ("scope", "last") SELECT 'invoice:' || year, max(seq) FROM "invoiced" GROUP BY year;--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_invoice_number_unique" UNIQUE("invoice_number");