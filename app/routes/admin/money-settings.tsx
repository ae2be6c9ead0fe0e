import type { Route } from "./+types/money-settings";
import { CURRENCIES, CURRENCY_SYMBOL } from "#domain/currency.ts";
import { moneySettingsSchema } from "#domain/money-settings.ts";
import { RATES_CHECKED, VAT_COUNTRIES, COUNTRY_NAME } from "#domain/vat-rates.ts";
import { ActionForm, useActionForm } from "#app/components/ActionForm.tsx";
import { CheckboxField, SelectField, TextField } from "#app/components/forms.tsx";
import { formAction } from "#app/lib/form.server.ts";
import { requireStaff } from "#app/lib/guards.server.ts";
import { AdminHeader } from "#app/components/admin/AdminHeader.tsx";

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireStaff(request, context, "settings");
  const { money } = await context.services.settings.all();
  return { values: money };
}

/** Saves the record as one change (decision 072): refused when it could not tax a sale, or the currency is locked. */
export async function action({ request, context }: Route.ActionArgs) {
  const viewer = await requireStaff(request, context, "settings");
  return formAction(await request.formData(), {
    schema: moneySettingsSchema,
    run: (money) => context.services.settings.update({ money }, viewer),
    success: (r) => (r.modified ? "Currency and VAT are Updated" : "Nothing changed"),
  });
}

export const meta: Route.MetaFunction = () => [{ title: "Currency and VAT" }, { name: "robots", content: "noindex" }];

const CURRENCY_NAMES = { USD: "US dollars", GBP: "Pounds sterling", EUR: "Euros" } as const;
const capitalize = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/**
 * The site's money settings (issue 35 part 1): the currency every price is in and how VAT is charged. The rules that
 * use them are domain/tax.ts's (decision 071); every order keeps what they gave when it was placed.
 */
export default function MoneySettings({ loaderData: { values } }: Route.ComponentProps) {
  const form = useActionForm({ id: "money-settings", defaultValue: values });
  return (
    <>
      <AdminHeader
        title="Currency and VAT"
        lead="The currency prices are in, and how VAT is charged. Each order keeps the amounts and the VAT it was placed with."
      />
      <ActionForm
        handle={form}
        className="max-w-2xl space-y-6 rounded-2xl bg-white p-6 ring-1 ring-linen sm:p-8"
        testId="money-settings"
      >
        <div>
          <SelectField
            label="Currency"
            name="currency"
            placeholder="Choose a currency"
            options={CURRENCIES.map((c) => ({ value: c, label: `${CURRENCY_NAMES[c]} (${CURRENCY_SYMBOL[c]}, ${c})` }))}
          />
          <p className="mt-1.5 text-xs text-mist">
            Prices, totals and PayPal use it. It can change only before the first order.
          </p>
        </div>
        <div>
          <SelectField
            label="The business is established in"
            name="sellerCountry"
            placeholder="Choose a country"
            options={VAT_COUNTRIES.map((c) => ({ value: c, label: capitalize(COUNTRY_NAME[c].replace(/^the /, "")) }))}
          />
        </div>
        <fieldset className="space-y-4 rounded-xl bg-sand/40 p-4">
          {/* Floated, the legend sits inside the tinted box as a heading rather than on its edge. */}
          <legend className="float-left w-full font-serif text-lg text-forest">VAT</legend>
          <div className="clear-both" />
          <CheckboxField label="Registered for VAT: charge VAT and issue VAT invoices" name="vatRegistered" />
          <div>
            <TextField label="VAT number" name="vatNumber" autoComplete="off" />
            <p className="mt-1.5 text-xs text-mist">
              Printed on every invoice when set; needed when registered. Written with its country prefix, e.g.
              GB123456789.
            </p>
          </div>
          <CheckboxField label="Prices are entered including VAT" name="pricesIncludeVat" />
          <div>
            <CheckboxField label="Use the One Stop Shop (OSS) for consumers in the European Union" name="oss" />
            <p className="mt-1.5 text-xs text-mist">
              On: a consumer in a member state pays that state&rsquo;s VAT, declared through the OSS. Off, for a UK
              business: such sales are outside the scope of UK VAT, and the VAT of the buyer&rsquo;s state is yours to
              settle by registering there. A business buyer in the Union with a VAT number is always reverse charged.
            </p>
          </div>
          <p className="text-xs text-mist">
            Standard rates of the UK and the 27 member states, checked on {RATES_CHECKED}.
          </p>
        </fieldset>
        <button type="submit" className="btn-primary px-6 py-2.5 text-sm" disabled={form.busy}>
          {form.busy ? "Saving…" : "Save currency and VAT"}
        </button>
      </ActionForm>
    </>
  );
}
