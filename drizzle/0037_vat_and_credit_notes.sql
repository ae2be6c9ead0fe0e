CREATE TABLE "credit_notes" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"number" text NOT NULL,
	"order_id" uuid NOT NULL,
	"refund_id" uuid,
	"currency" text NOT NULL,
	"gross_cents" integer NOT NULL,
	"tax_cents" integer NOT NULL,
	"tax_rate" integer NOT NULL,
	"reason" text,
	"issued_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "credit_notes_number_unique" UNIQUE("number"),
	CONSTRAINT "credit_notes_refund_id_unique" UNIQUE("refund_id"),
	CONSTRAINT "credit_notes_amounts_check" CHECK ("credit_notes"."gross_cents" > 0 and "credit_notes"."tax_cents" >= 0 and "credit_notes"."tax_cents" <= "credit_notes"."gross_cents"),
	CONSTRAINT "credit_notes_currency_check" CHECK ("credit_notes"."currency" in ('USD', 'GBP', 'EUR'))
);
--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "currency" text DEFAULT 'USD' NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "tax_cents" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "tax_rate" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "tax_country" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "tax_treatment" text DEFAULT 'not-registered' NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "tax_note" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "customer_vat_number" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "customer_country_code" text;--> statement-breakpoint
ALTER TABLE "credit_notes" ADD CONSTRAINT "credit_notes_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "credit_notes" ADD CONSTRAINT "credit_notes_refund_id_payment_refunds_id_fk" FOREIGN KEY ("refund_id") REFERENCES "public"."payment_refunds"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "credit_notes_order_idx" ON "credit_notes" USING btree ("order_id","issued_at");--> statement-breakpoint
CREATE INDEX "credit_notes_issued_idx" ON "credit_notes" USING btree ("issued_at");--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_currency_check" CHECK ("orders"."currency" in ('USD', 'GBP', 'EUR'));--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_tax_treatment_check" CHECK ("orders"."tax_treatment" in ('not-registered', 'domestic', 'oss', 'reverse-charge', 'outside-scope'));--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_tax_check" CHECK ("orders"."tax_cents" >= 0 and "orders"."tax_rate" >= 0 and "orders"."tax_cents" <= round("orders"."package_price" * 100) and ("orders"."tax_cents" = 0 or "orders"."tax_rate" > 0));
--> statement-breakpoint
-- The VAT number of the invoice settings moves into the money settings' one record (decision 072), written as invoices
-- print it; the seller stays unregistered until the studio says otherwise in Settings.
INSERT INTO "settings" ("key", "value")
SELECT 'money', jsonb_build_object('currency', 'USD', 'sellerCountry', 'GB', 'vatRegistered', false,
  'vatNumber', upper(regexp_replace("value" #>> '{}', '[\s.-]', '', 'g')), 'pricesIncludeVat', false, 'oss', false)
FROM "settings" WHERE "key" = 'invoiceVatNumber' AND coalesce("value" #>> '{}', '') <> ''
ON CONFLICT ("key") DO NOTHING;--> statement-breakpoint
DELETE FROM "settings" WHERE "key" = 'invoiceVatNumber';
