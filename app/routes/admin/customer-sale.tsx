import { Link } from "react-router";
import type { Route } from "./+types/customer-sale";
import { centsOf, formatMoney } from "#domain/currency.ts";
import { longDate } from "#domain/dates.ts";
import { saleSchema } from "#domain/sales.ts";
import {
  ERASED_NO_SALE,
  SALE_REASON_MAX,
  SALE_REFERENCE_MAX,
  SALE_SETTLEMENTS,
  SALE_SETTLEMENT_LABELS,
} from "#domain/sale-choices.ts";
import { ActionForm, useActionForm } from "#app/components/ActionForm.tsx";
import { CheckboxField, SelectField, TextAreaField, TextField } from "#app/components/forms.tsx";
import { formAction } from "#app/lib/form.server.ts";
import { requireStaff } from "#app/lib/guards.server.ts";
import { AdminHeader } from "#app/components/admin/AdminHeader.tsx";

/**
 * A sale made by hand (issue 35, part 7), from the customer's record: an order for them at a package's price or at
 * another price with the reason why, taxed as their own order would be, then paid already (and invoiced) or sent to
 * them to pay. Making an order and recording its payment is the orders area's, as the order screen's payment status.
 */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  await requireStaff(request, context, "orders");
  const [customer, pricing, settings] = await Promise.all([
    context.services.customers.saleDefaults(params.id),
    context.services.content.list("pricing"),
    context.services.settings.all(),
  ]);
  const { currency, vatRegistered, pricesIncludeVat } = settings.money;
  return {
    customer,
    packages: pricing.map((p) => ({
      value: p._id,
      label: `${String(p.packageName)} · ${formatMoney(centsOf(String(p.packagePrice)), currency)} · ${Number(p.packageValidity)} days`,
    })),
    currency,
    // What a typed price is, as the package prices are (the money settings): the tax is worked out on the server.
    footing: !vatRegistered
      ? "No VAT is charged: the price is what they pay."
      : pricesIncludeVat
        ? "Prices include VAT: the price typed is what they pay, VAT within it."
        : "Prices are entered without VAT: the VAT due is added to the price typed.",
    // A one-time key per form shown: the same post sent twice makes one order (a double click, a reload).
    saleKey: crypto.randomUUID(),
  };
}

export async function action({ request, context, params }: Route.ActionArgs) {
  const viewer = await requireStaff(request, context, "orders");
  const form = await request.formData();
  const zone = context.config.timeZone;
  return formAction(form, {
    schema: saleSchema,
    run: (value) => context.services.customers.sell(params.id, value, viewer, form.get("idempotencyKey")),
    success: (r) => {
      if (!r.created) return `This sale was already made: order ${r.orderNumber}.`;
      // What it costs, as worked out on the server (the VAT the money settings call for).
      const total = `${formatMoney(centsOf(r.amount), r.currency)}${r.taxCents ? `, VAT ${formatMoney(r.taxCents, r.currency)} included` : ""}`;
      if (r.paymentStatus !== "Paid")
        return `Order ${r.orderNumber} (${total}) is made. They were emailed the link to pay it; it shows as unpaid until they do.`;
      return [
        `Order ${r.orderNumber} (${total}) is made and paid${r.invoiceNumber ? `: invoice ${r.invoiceNumber}` : ""}.`,
        r.membershipValid
          ? `The membership runs until ${longDate(r.membershipValid, zone)}.`
          : "The membership starts when the order is set Delivered.",
      ];
    },
    reset: true,
  });
}

export const meta: Route.MetaFunction = ({ data: d }) => [
  { title: d ? `New sale · ${d.customer.name || d.customer.email}` : "New sale" },
  { name: "robots", content: "noindex" },
];

export default function CustomerSale({
  loaderData: { customer: c, packages, currency, footing, saleKey },
}: Route.ComponentProps) {
  const defaults = {
    customerName: c.customerName,
    customerAddress: c.customerAddress,
    customerCountry: c.customerCountry,
    customerVatNumber: c.customerVatNumber,
    activate: true,
  };
  const form = useActionForm({ id: "sale", defaultValue: defaults });
  const back = { to: `/customers/${c.id}`, label: c.name || c.email || "Customer" };
  if (c.erased)
    return (
      <>
        <AdminHeader title="New sale" back={back} />
        <p className="rounded-2xl bg-white p-6 text-sm ring-1 ring-linen" role="status">
          {ERASED_NO_SALE}
        </p>
      </>
    );
  return (
    <>
      <AdminHeader title="New sale" lead={c.name ? c.email : null} back={back} />
      <ActionForm
        handle={form}
        hidden={{ idempotencyKey: saleKey }}
        className="grid gap-5 rounded-2xl bg-white p-6 ring-1 ring-linen md:grid-cols-2"
        testId="sale-form"
      >
        <div className="space-y-1 text-sm text-mist md:col-span-2">
          <p>
            An order for {c.name || c.email}, invoiced like any other once it is paid. {footing}
          </p>
        </div>
        <SelectField label="Package" name="packageId" options={packages} placeholder="Choose the package" required />
        <TextField
          label={`Price in ${currency} (blank: the package's price)`}
          name="price"
          inputMode="decimal"
          autoComplete="off"
          maxLength={20}
        />
        <TextField
          label="Reason for another price (only the staff see it)"
          name="reason"
          maxLength={SALE_REASON_MAX}
          autoComplete="off"
          className="md:col-span-2"
        />
        <BuyerFields />
        <SelectField
          label="Payment"
          name="settle"
          options={SALE_SETTLEMENTS.map((s) => ({ value: s, label: SALE_SETTLEMENT_LABELS[s] }))}
          placeholder="Choose how it is paid"
          required
        />
        <TextField
          label="Payment reference (the transfer's, PayPal's transaction id, or a note for cash)"
          name="reference"
          maxLength={SALE_REFERENCE_MAX}
          autoComplete="off"
          className="md:col-span-2"
        />
        <CheckboxField label="Start the membership now, when it is paid" name="activate" />
        <div className="flex flex-wrap items-center gap-4 md:col-span-2">
          <button type="submit" className="btn-dark" disabled={form.busy}>
            {form.busy ? "Saving…" : "Make the sale"}
          </button>
          <Link to={back.to} className="text-sm font-semibold text-clay hover:underline">
            Back to the customer
          </Link>
        </div>
      </ActionForm>
    </>
  );
}

/** Who buys: the order's name, country, address and VAT number (the customer's last ones to start with). */
function BuyerFields() {
  return (
    <>
      <TextField label="Full name" name="customerName" maxLength={120} autoComplete="off" required />
      <TextField label="Country" name="customerCountry" maxLength={80} autoComplete="off" required />
      <TextAreaField
        label="Address"
        name="customerAddress"
        maxLength={300}
        rows={2}
        required
        className="md:col-span-2"
      />
      <TextField label="VAT number (a business only)" name="customerVatNumber" maxLength={20} autoComplete="off" />
    </>
  );
}
