import { Link } from "react-router";
import type { Route } from "./+types/invoice-settings";
import { INVOICE_SETTING_KEYS, SETTINGS, invoiceSettingsSchema } from "#domain/settings.ts";
import { ActionForm, useActionForm } from "#app/components/ActionForm.tsx";
import { TextAreaField, TextField } from "#app/components/forms.tsx";
import { formAction } from "#app/lib/form.server.ts";
import { requireStaff } from "#app/lib/guards.server.ts";
import { AdminHeader } from "#app/components/admin/AdminHeader.tsx";

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireStaff(request, context, "settings");
  const settings = await context.services.settings.all();
  return { values: Object.fromEntries(INVOICE_SETTING_KEYS.map((k) => [k, settings[k] ?? ""])) };
}

/** Saves the four details at once: a field left empty clears its line on the invoices. */
export async function action({ request, context }: Route.ActionArgs) {
  const viewer = await requireStaff(request, context, "settings");
  return formAction(await request.formData(), {
    schema: invoiceSettingsSchema,
    run: (value) => context.services.settings.update(value, viewer),
    success: (r) => (r.modified ? "Invoice details are Updated" : "Nothing changed"),
  });
}

export const meta: Route.MetaFunction = () => [{ title: "Invoice details" }, { name: "robots", content: "noindex" }];

/**
 * The legal details printed on every invoice (decision 038) that the site content does not hold. The agency's name,
 * address, phone and email come from the footer's content, edited there.
 */
export default function InvoiceSettings({ loaderData: { values } }: Route.ComponentProps) {
  const form = useActionForm({ id: "invoice-settings", defaultValue: values });
  return (
    <>
      <AdminHeader
        title="Invoice details"
        lead={
          <>
            Printed on every invoice when set; the VAT number is under{" "}
            <Link to="/money-settings/" className="text-clay underline hover:text-clay-dark">
              Currency and VAT
            </Link>
            . The name, address, phone and email on invoices come from the{" "}
            <Link to="/add-address-footer/" className="text-clay underline hover:text-clay-dark">
              footer address
            </Link>
            .
          </>
        }
      />
      <ActionForm
        handle={form}
        className="max-w-2xl space-y-6 rounded-2xl bg-white p-6 ring-1 ring-linen sm:p-8"
        testId="invoice-settings"
      >
        {INVOICE_SETTING_KEYS.map((key) => {
          const setting = SETTINGS[key];
          const Field = key === "invoiceRegisteredAddress" ? TextAreaField : TextField;
          return (
            <div key={key}>
              <Field label={setting.label} name={key} />
              <p className="mt-1.5 text-xs text-mist">{setting.help}</p>
            </div>
          );
        })}
        <button type="submit" className="btn-primary px-6 py-2.5 text-sm" disabled={form.busy}>
          {form.busy ? "Saving…" : "Save details"}
        </button>
      </ActionForm>
    </>
  );
}
