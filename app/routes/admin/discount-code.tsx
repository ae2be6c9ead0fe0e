import type { Route } from "./+types/discount-code";
import { discountCodeSchema, discountStateSchema } from "#domain/discounts.ts";
import { ActionForm, useActionForm } from "#app/components/ActionForm.tsx";
import { DiscountCodeFields } from "#app/components/admin/DiscountCodeFields.tsx";
import { formAction } from "#app/lib/form.server.ts";
import { requireStaff } from "#app/lib/guards.server.ts";
import { AdminHeader } from "#app/components/admin/AdminHeader.tsx";

export async function loader({ request, context, params }: Route.LoaderArgs) {
  await requireStaff(request, context, "orders");
  const [code, pricing] = await Promise.all([
    context.services.discounts.get(params.id),
    context.services.content.list("pricing"),
  ]);
  return { code, packages: pricing.map((p) => ({ id: p._id, name: String(p.packageName) })) };
}

export async function action({ request, context, params }: Route.ActionArgs) {
  const viewer = await requireStaff(request, context, "orders");
  const form = await request.formData();
  if (form.get("intent") === "state")
    return formAction(form, {
      schema: discountStateSchema,
      run: (value) => context.services.discounts.setDisabled(params.id, value, viewer),
      success: (r) => (r.modified ? "Discount code is updated" : "Nothing changed"),
    });
  return formAction(form, {
    schema: discountCodeSchema,
    run: (value) => context.services.discounts.update(params.id, value, viewer),
    success: (r) => (r.modified ? "Discount code is updated" : "Nothing changed"),
  });
}

export const meta: Route.MetaFunction = ({ data }) => [
  { title: data ? `Discount code ${data.code.code}` : "Discount code" },
  { name: "robots", content: "noindex" },
];

/** /discount-codes/:id: the code's fields, and disable or enable it (orders that used it keep it). */
export default function DiscountCode({ loaderData: { code, packages } }: Route.ComponentProps) {
  const form = useActionForm({ id: "discount-edit" });
  const state = useActionForm({ id: "discount-state" });
  return (
    <>
      <AdminHeader
        title={`Discount code ${code.code}`}
        lead={`Used ${code.uses} ${code.uses === 1 ? "time" : "times"}${code.maxUses ? ` of ${code.maxUses}` : ""}.`}
        back={{ to: "/discount-codes", label: "Discount codes" }}
      />
      <ActionForm
        handle={form}
        intent="update"
        className="space-y-6 rounded-2xl bg-white p-6 ring-1 ring-linen sm:p-8"
        testId="discount-edit"
      >
        <DiscountCodeFields
          values={{
            code: code.code,
            kind: code.kind,
            value: String(code.value),
            validFrom: code.validFrom ?? "",
            validTo: code.validTo ?? "",
            maxUses: code.maxUses ? String(code.maxUses) : "",
            oncePerCustomer: code.oncePerCustomer,
            packageIds: code.packageIds,
            period: code.period,
            note: code.note,
          }}
          packages={packages}
        />
        <button type="submit" className="btn-primary px-6 py-2.5 text-sm" disabled={form.busy}>
          {form.busy ? "Saving…" : "Save discount code"}
        </button>
      </ActionForm>
      <ActionForm
        handle={state}
        intent="state"
        hidden={{ disabled: code.disabled ? "false" : "true" }}
        className="mt-6 rounded-2xl bg-white p-6 ring-1 ring-linen sm:p-8"
        testId="discount-state"
      >
        <p className="text-sm text-mist">
          {code.disabled
            ? "This code is disabled: customers cannot use it."
            : "Customers can use this code. Disabling it keeps it on the orders that used it."}
        </p>
        <button type="submit" className="btn-outline mt-4 px-6 py-2.5 text-sm" disabled={state.busy}>
          {code.disabled ? "Enable code" : "Disable code"}
        </button>
      </ActionForm>
    </>
  );
}
