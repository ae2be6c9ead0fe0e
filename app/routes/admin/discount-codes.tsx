import { Link } from "react-router";
import type { Route } from "./+types/discount-codes";
import { discountCodeSchema, discountWorth, DISCOUNT_PERIOD_LABEL } from "#domain/discounts.ts";
import { ActionForm, useActionForm } from "#app/components/ActionForm.tsx";
import { Badge, DataTable } from "#app/components/DataTable.tsx";
import { DiscountCodeFields, EMPTY_DISCOUNT_CODE } from "#app/components/admin/DiscountCodeFields.tsx";
import { formAction } from "#app/lib/form.server.ts";
import { requireStaff } from "#app/lib/guards.server.ts";
import { AdminHeader } from "#app/components/admin/AdminHeader.tsx";

const PER_PAGE = 20;

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireStaff(request, context, "orders");
  const page = new URL(request.url).searchParams.get("page") ?? undefined;
  const [{ codes, page: info }, pricing] = await Promise.all([
    context.services.discounts.list({ page, perPage: PER_PAGE }),
    context.services.content.list("pricing"),
  ]);
  return { codes, page: info, packages: pricing.map((p) => ({ id: p._id, name: String(p.packageName) })) };
}

export async function action({ request, context }: Route.ActionArgs) {
  const viewer = await requireStaff(request, context, "orders");
  return formAction(await request.formData(), {
    schema: discountCodeSchema,
    run: (value) => context.services.discounts.add(value, viewer),
    success: "Discount code is added",
    reset: true,
  });
}

export const meta: Route.MetaFunction = () => [{ title: "Discount codes" }, { name: "robots", content: "noindex" }];

/** /discount-codes: the add form, then every code newest first with its uses (paged). */
export default function DiscountCodes({ loaderData: { codes, page, packages } }: Route.ComponentProps) {
  const form = useActionForm({ id: "discount-add" });
  const names = new Map(packages.map((p) => [p.id, p.name]));
  return (
    <>
      <AdminHeader title="Discount codes" lead="Customers type a code on the order page; the price is lowered there." />
      <ActionForm
        handle={form}
        className="space-y-6 rounded-2xl bg-white p-6 ring-1 ring-linen sm:p-8"
        testId="discount-add"
      >
        <DiscountCodeFields values={EMPTY_DISCOUNT_CODE} packages={packages} />
        <button type="submit" className="btn-primary px-6 py-2.5 text-sm" disabled={form.busy}>
          {form.busy ? "Adding…" : "Add discount code"}
        </button>
      </ActionForm>
      <div className="mt-8">
        <DataTable
          caption="Discount codes"
          testId="discount-codes"
          rows={codes}
          rowKey={(c) => c._id}
          page={page}
          empty="No discount code yet."
          columns={[
            { header: "Code", cell: (c) => <span className="font-mono">{c.code}</span> },
            { header: "Discount", cell: (c) => discountWorth(c) },
            {
              header: "Valid",
              cell: (c) => (c.validFrom || c.validTo ? `${c.validFrom ?? "…"} to ${c.validTo ?? "…"}` : "Always"),
            },
            { header: "Uses", cell: (c) => (c.maxUses ? `${c.uses} of ${c.maxUses}` : String(c.uses)) },
            {
              header: "Packages",
              cell: (c) =>
                c.packageIds.length ? c.packageIds.map((id) => names.get(id) ?? "Removed").join(", ") : "All",
            },
            {
              header: "Rules",
              cell: (c) =>
                [c.oncePerCustomer ? "Once per customer" : "", DISCOUNT_PERIOD_LABEL[c.period]]
                  .filter(Boolean)
                  .join(" · "),
            },
            {
              header: "State",
              cell: (c) => (c.disabled ? <Badge tone="grey">Disabled</Badge> : <Badge tone="green">Active</Badge>),
            },
            {
              header: "Action",
              pinned: true,
              cell: (c) => (
                <Link to={`/discount-codes/${c._id}`} className="btn-outline px-4 py-2 text-xs">
                  Edit
                </Link>
              ),
            },
          ]}
        />
      </div>
    </>
  );
}
