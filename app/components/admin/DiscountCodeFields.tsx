import {
  DISCOUNT_HOLD_HOURS,
  DISCOUNT_KIND_LABEL,
  DISCOUNT_KINDS,
  DISCOUNT_PERIOD_LABEL,
  DISCOUNT_PERIODS,
} from "#domain/discounts.ts";
import { useFieldState, useSubmittedValues } from "../ActionForm";
import { SelectField, TextField } from "../forms";

/** A code's values as the form shows them (strings; blank is no limit). */
export interface DiscountCodeValues {
  code: string;
  kind: string;
  value: string;
  validFrom: string;
  validTo: string;
  maxUses: string;
  oncePerCustomer: boolean;
  packageIds: string[];
  period: string;
  note: string;
}

export const EMPTY_DISCOUNT_CODE: DiscountCodeValues = {
  code: "",
  kind: "percent",
  value: "",
  validFrom: "",
  validTo: "",
  maxUses: "",
  oncePerCustomer: false,
  packageIds: [],
  period: "first",
  note: "",
};

/** The fields of a discount code (decision 049), inside an ActionForm: the add form and the edit form. */
export function DiscountCodeFields({
  values,
  packages,
}: {
  values: DiscountCodeValues;
  packages: { id: string; name: string }[];
}) {
  const packagesError = useFieldState("packageIds")?.error;
  // A refused post (without JavaScript the page comes back) keeps what was typed, not the record's values.
  const sent = useSubmittedValues();
  const text = (name: keyof DiscountCodeValues) => (sent ? String(sent[name] ?? "") : (values[name] as string));
  const ticked = sent ? [sent.packageIds ?? []].flat().map(String) : values.packageIds;
  const once = sent ? sent.oncePerCustomer === "on" : values.oncePerCustomer;
  return (
    <div className="grid gap-5 sm:grid-cols-2">
      <TextField
        label="Code"
        name="code"
        defaultValue={text("code")}
        required
        maxLength={32}
        autoCapitalize="characters"
        spellCheck={false}
      />
      <SelectField
        label="Kind"
        name="kind"
        defaultValue={text("kind")}
        options={DISCOUNT_KINDS.map((k) => ({ value: k, label: DISCOUNT_KIND_LABEL[k] }))}
      />
      <div>
        <TextField label="Value" name="value" defaultValue={text("value")} inputMode="decimal" required />
        <p className="mt-1.5 text-xs text-mist">A percentage (1 to 100) or an amount in US dollars.</p>
      </div>
      <div>
        <TextField label="Maximum uses" name="maxUses" defaultValue={text("maxUses")} inputMode="numeric" />
        <p className="mt-1.5 text-xs text-mist">
          Blank: no limit. A paid order is a use; an unpaid one holds a use for {DISCOUNT_HOLD_HOURS} hours (one per
          customer); a cancelled order gives its use back.
        </p>
      </div>
      <TextField label="Valid from" name="validFrom" type="date" defaultValue={text("validFrom")} />
      <TextField label="Valid to" name="validTo" type="date" defaultValue={text("validTo")} />
      <fieldset className="sm:col-span-2">
        <legend className="field-label">Packages</legend>
        <p className="text-xs text-mist">None ticked: every package.</p>
        <div className="mt-2 flex flex-wrap gap-x-6 gap-y-2">
          {packages.map((p) => (
            <label key={p.id} className="flex items-center gap-2 text-sm">
              <input type="checkbox" name="packageIds" value={p.id} defaultChecked={ticked.includes(p.id)} />
              {p.name}
            </label>
          ))}
        </div>
        {packagesError ? <p className="field-error">{packagesError}</p> : null}
      </fieldset>
      <label className="flex items-center gap-2 text-sm sm:col-span-2">
        <input type="checkbox" name="oncePerCustomer" defaultChecked={once} />
        Once per customer
      </label>
      <div>
        <SelectField
          label="For subscriptions"
          name="period"
          defaultValue={text("period")}
          options={DISCOUNT_PERIODS.map((p) => ({ value: p, label: DISCOUNT_PERIOD_LABEL[p] }))}
        />
      </div>
      <TextField label="Note (staff only)" name="note" defaultValue={text("note")} maxLength={300} />
    </div>
  );
}
