import { useState } from "react";
import { data, redirect } from "react-router";
import { COUNTRIES, countryCodeOf } from "#domain/countries.ts";
import { dayKey } from "#domain/dates.ts";
import { taxSellerOf, type MoneySettings } from "#domain/money-settings.ts";
import { orderPrice } from "#domain/order-price.ts";
import { checkVatNumber } from "#domain/vat-number.ts";
import { vatCountry } from "#domain/vat-rates.ts";
import { TaxLines, type TaxShown } from "#app/components/TaxLines.tsx";
import type { Route } from "./+types/order-now";
import { orderFormSchema } from "#domain/order-form.ts";
import { ActionForm, useActionForm } from "#app/components/ActionForm.tsx";
import { TextField } from "#app/components/forms.tsx";
import { useFormDraft } from "#app/components/useFormDraft.ts";
import { formAction } from "#app/lib/form.server.ts";
import { requireUser } from "#app/lib/guards.server.ts";
import { formatPrice } from "#app/lib/pricing.ts";

export async function loader({ request, context, params }: Route.LoaderArgs) {
  const viewer = await requireUser(request, context);
  const pkg = await context.services.content.get("pricing", params.id).catch(() => {
    throw data({ message: "This package does not exist." }, { status: 404 });
  });
  const { money } = await context.services.settings.all();
  return {
    // The money settings and the day: the summary works out the VAT as the server will when the order is placed.
    money,
    day: dayKey(new Date(), context.config.timeZone),
    viewerId: viewer.id,
    email: viewer.email,
    emailVerified: viewer.emailVerified,
    // The form's one-time key: posting it twice (a double click, a retry) places one order.
    idempotencyKey: crypto.randomUUID(),
    pkg: {
      id: pkg._id,
      name: String(pkg.packageName),
      price: Number(pkg.packagePrice),
      validity: Number(pkg.packageValidity),
    },
  };
}

export async function action({ request, context, params }: Route.ActionArgs) {
  const viewer = await requireUser(request, context);
  const form = await request.formData();
  return formAction(form, {
    schema: orderFormSchema,
    run: async (value) => {
      const { order } = await context.services.orders.place(viewer, params.id, value, form.get("idempotencyKey"));
      throw redirect(`/pending-order?order=${order._id}`);
    },
  });
}

export const meta: Route.MetaFunction = ({ data }) => [
  { title: data ? `Order ${data.pkg.name}` : "Order" },
  { name: "robots", content: "noindex" },
];

/** The fields a customer types, kept in the tab while typed (a session that ends before the post loses nothing). */
export const ORDER_DRAFT_FIELDS = ["customerName", "customerAddress", "customerCountry", "customerVatNumber"] as const;

/**
 * Read-only facts (the package, its price, the email): shown as plain text on a tinted ground, without the field's
 * border, so that they do not look like something to type in; still inputs, labelled and announced read-only.
 */
const READ_ONLY =
  "[&_input]:cursor-default [&_input]:border-transparent [&_input]:bg-sand/70 [&_input]:px-0 [&_input]:pl-4 [&_input]:font-medium [&_input]:text-ink [&_input]:focus:ring-0 [&_input]:focus:border-linen";

/**
 * The VAT the order will carry, worked out as the server will when it is placed (domain/order-price.ts): shown before
 * "Place Order Now" (UK rules want it seen before the order). A VAT number is asked only of a buyer in the UK or the
 * Union, where it can matter; one of the wrong form says the form expected, and the summary waits for a valid one.
 */
function orderSummary(
  money: MoneySettings,
  listPrice: number,
  buyer: { country: string; vatNumber: string },
  day: string,
): { lines: TaxShown | null; asksVatNumber: boolean; vatNumberHint: string | null; problem: string | null } {
  const code = countryCodeOf(buyer.country);
  const asksVatNumber = Boolean(vatCountry(code));
  const typed = asksVatNumber ? buyer.vatNumber.trim() : "";
  const checked = typed ? checkVatNumber(code!, typed) : null;
  const vatNumberHint = checked && !checked.ok ? checked.message : null;
  if (!money.vatRegistered) return { lines: null, asksVatNumber, vatNumberHint, problem: null };
  try {
    const { tax } = orderPrice({
      seller: taxSellerOf(money),
      currency: money.currency,
      buyer: { country: code ?? "", vatNumber: checked?.ok ? checked.normalized : null },
      listPrice,
      discountedPrice: null,
      day,
    });
    return { lines: { ...tax, grossCents: tax.grossCents }, asksVatNumber, vatNumberHint, problem: null };
  } catch (error) {
    return { lines: null, asksVatNumber, vatNumberHint, problem: (error as Error).message };
  }
}

type OrderPage = Route.ComponentProps["loaderData"];

/** The package, its price and validity and the buyer's email: shown, not edited. */
function PackageFields({ pkg, money, email }: Pick<OrderPage, "pkg" | "money" | "email">) {
  return (
    <>
      <TextField
        label="Package"
        name="packageName"
        value={pkg.name}
        readOnly
        className={`sm:col-span-2 ${READ_ONLY}`}
      />
      <TextField
        label="Price"
        name="packagePrice"
        value={formatPrice(pkg.price, money.currency)}
        readOnly
        className={READ_ONLY}
      />
      <TextField
        label="Validity"
        name="packageValidity"
        value={`${pkg.validity} days`}
        readOnly
        className={READ_ONLY}
      />
      <TextField label="Email" name="customerEmail" value={email} readOnly className={`sm:col-span-2 ${READ_ONLY}`} />
    </>
  );
}

/** The VAT number a business may give, and the tax the order will carry for the buyer typed so far. */
function BuyerTax({ money, summary }: Pick<OrderPage, "money"> & { summary: ReturnType<typeof orderSummary> }) {
  return (
    <>
      {money.vatRegistered && summary.asksVatNumber ? (
        <div className="sm:col-span-2" data-testid="business">
          <TextField
            label="Buying for a business? VAT number (optional)"
            name="customerVatNumber"
            autoComplete="off"
            autoCapitalize="characters"
            spellCheck={false}
            maxLength={20}
          />
          <p className="mt-1.5 text-xs text-mist">
            {summary.vatNumberHint ??
              "Printed on your invoice. A business in the EU outside our country is invoiced without VAT."}
          </p>
        </div>
      ) : null}
      {summary.lines ? (
        <dl
          className="grid gap-x-6 gap-y-2 rounded-2xl bg-sand/60 p-5 text-sm sm:col-span-2 sm:grid-cols-[12rem_1fr]"
          data-testid="order-tax"
          aria-live="polite"
        >
          <TaxLines tax={summary.lines} testId="order-tax" />
        </dl>
      ) : summary.problem ? (
        <p className="text-sm text-mist sm:col-span-2" data-testid="order-tax-problem">
          {summary.problem}
        </p>
      ) : null}
    </>
  );
}

/** The plan's card beside the form. */
function PlanAside({ pkg, money }: Pick<OrderPage, "pkg" | "money">) {
  return (
    <aside className="h-fit rounded-3xl bg-forest p-8 text-white">
      <h2 className="font-serif text-2xl">{pkg.name}</h2>
      <p className="mt-4 font-serif text-4xl text-brass">{formatPrice(pkg.price, money.currency)}</p>
      {money.vatRegistered ? (
        <p className="mt-1 text-sm text-white/75">
          {money.pricesIncludeVat ? "VAT included where it applies" : "plus VAT where it applies"}
        </p>
      ) : null}
      <p className="mt-1 text-sm text-white/75">for {pkg.validity} days of membership</p>
      <p className="mt-6 text-sm leading-relaxed text-white/75">
        You pay with PayPal on the next step. Your membership starts once PayPal confirms the payment and the studio has
        set up your account.
      </p>
    </aside>
  );
}

/** What the buyer has typed so far, read from the form as it changes, and once a kept draft is back in it. */
function useBuyerSoFar(domId: string, viewerId: OrderPage["viewerId"]) {
  const [buyer, setBuyer] = useState({ country: "", vatNumber: "" });
  const readBuyer = (formElement: HTMLFormElement) => {
    const fields = new FormData(formElement);
    setBuyer({
      country: String(fields.get("customerCountry") ?? ""),
      vatNumber: String(fields.get("customerVatNumber") ?? ""),
    });
  };
  useFormDraft({
    domId,
    formId: "order",
    owner: viewerId,
    fields: ORDER_DRAFT_FIELDS,
    onRestored: readBuyer,
  });
  return { buyer, readBuyer };
}

/** 'Get started with our {package} Plan today.': the package is read-only; the customer gives name, address, country. */
export default function OrderNow({
  loaderData: { pkg, email, emailVerified, viewerId, idempotencyKey, money, day },
}: Route.ComponentProps) {
  const form = useActionForm({ id: "order", feedback: "inline" });
  const { buyer, readBuyer } = useBuyerSoFar(form.form.id, viewerId);
  const summary = orderSummary(money, pkg.price, buyer, day);
  return (
    <section className="bg-sand/60">
      <div className="container-page py-12 sm:py-16">
        <p className="eyebrow">Order</p>
        <h1 className="mt-2 text-3xl text-forest sm:text-4xl">Get started with our {pkg.name} Plan today.</h1>
        {emailVerified ? null : (
          <p
            role="note"
            data-testid="confirm-email-note"
            className="mt-6 rounded-2xl bg-white px-6 py-4 text-sm text-ink ring-1 ring-linen"
          >
            Please confirm your email address: we sent a link to <strong className="break-all">{email}</strong>. You can
            place your order now.
          </p>
        )}
        <div className="mt-10 grid gap-8 lg:grid-cols-[1fr_22rem]">
          <ActionForm
            handle={form}
            onFieldsChange={readBuyer}
            className="grid gap-5 rounded-3xl bg-white p-6 ring-1 ring-linen sm:grid-cols-2 sm:p-10"
          >
            <input type="hidden" name="idempotencyKey" value={idempotencyKey} />
            <PackageFields pkg={pkg} money={money} email={email} />
            <TextField label="Full Name" name="customerName" autoComplete="name" required className="sm:col-span-2" />
            <TextField
              label="Address"
              name="customerAddress"
              autoComplete="street-address"
              required
              className="sm:col-span-2"
            />
            <TextField
              label="Country"
              name="customerCountry"
              autoComplete="country-name"
              list="countries"
              required
              className="sm:col-span-2"
            />
            <datalist id="countries">
              {COUNTRIES.map(([code, name]) => (
                <option key={code} value={name} />
              ))}
            </datalist>
            <BuyerTax money={money} summary={summary} />
            <div className="sm:col-span-2">
              <TextField
                label="Discount code (optional)"
                name="discountCode"
                autoComplete="off"
                autoCapitalize="characters"
                spellCheck={false}
                maxLength={32}
              />
              <p className="mt-1.5 text-xs text-mist">The discounted price is shown on the next step.</p>
            </div>
            <div className="sm:col-span-2">
              <button type="submit" className="btn-primary w-full sm:w-auto" disabled={form.busy}>
                {form.busy ? "Placing your order…" : "Place Order Now"}
              </button>
            </div>
          </ActionForm>
          <PlanAside pkg={pkg} money={money} />
        </div>
      </div>
    </section>
  );
}
