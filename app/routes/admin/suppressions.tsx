import type { Route } from "./+types/suppressions";
import { ActionForm, useActionForm } from "#app/components/ActionForm.tsx";
import { Badge, DataTable } from "#app/components/DataTable.tsx";
import { TextField } from "#app/components/forms.tsx";
import { formAction } from "#app/lib/form.server.ts";
import { requireStaff } from "#app/lib/guards.server.ts";
import { AdminHeader } from "#app/components/admin/AdminHeader.tsx";
import { dateTime } from "#domain/dates.ts";
import { SUPPRESSION_REASON_LABELS } from "#domain/newsletters.ts";
import { suppressionSchema } from "#server/services/suppressions.ts";

const PER_PAGE = 50;

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireStaff(request, context, "subscribers");
  const page = new URL(request.url).searchParams.get("page");
  return { ...(await context.services.suppressions.list(page, PER_PAGE)), timeZone: context.config.timeZone };
}

export async function action({ request, context }: Route.ActionArgs) {
  const viewer = await requireStaff(request, context, "subscribers");
  const form = await request.formData();
  if (form.get("intent") === "remove") {
    return formAction(form, {
      run: () => context.services.suppressions.remove(String(form.get("address") ?? ""), viewer),
      success: "The address may be mailed again",
    });
  }
  return formAction(form, {
    schema: suppressionSchema,
    run: (value) => context.services.suppressions.add(value, viewer),
    success: (r) => (r.added ? "The address is on the suppression list" : "The address was already on the list"),
    reset: true,
  });
}

export const meta: Route.MetaFunction = () => [{ title: "Suppression list" }, { name: "robots", content: "noindex" }];

function RemoveButton({ address }: { address: string }) {
  const form = useActionForm({ id: `suppression-remove-${address}` });
  return (
    <ActionForm handle={form} intent="remove" hidden={{ address }}>
      <button type="submit" className="btn-outline px-3 py-1.5 text-xs" disabled={form.busy}>
        Remove
      </button>
    </ActionForm>
  );
}

/** /suppressions: addresses no newsletter goes to (bounces, complaints, unsubscribes, by hand); add and remove. */
export default function Suppressions({ loaderData: { suppressions, page, timeZone } }: Route.ComponentProps) {
  const add = useActionForm({ id: "suppression-add" });
  return (
    <>
      <AdminHeader
        title="Suppression list"
        lead="No newsletter is ever sent to these addresses: hard bounces and spam complaints reported by the mail provider, unsubscribes, and addresses added here."
      />
      <ActionForm handle={add} className="grid gap-4 rounded-2xl bg-white p-6 ring-1 ring-linen sm:grid-cols-3 sm:p-8">
        <TextField label="Email" name="address" type="email" />
        <TextField label="Note (optional)" name="note" maxLength={500} />
        <div className="flex items-end">
          <button type="submit" className="btn-primary px-6 py-2.5 text-sm" disabled={add.busy}>
            Add to the list
          </button>
        </div>
      </ActionForm>
      <div className="mt-8">
        <DataTable
          caption="Suppressed addresses"
          testId="suppressions"
          rows={suppressions}
          rowKey={(s) => s.address}
          page={page}
          empty="No address is suppressed."
          columns={[
            { header: "Email", typed: true, cell: (s) => s.address },
            { header: "Why", cell: (s) => <Badge tone="grey">{SUPPRESSION_REASON_LABELS[s.reason]}</Badge> },
            { header: "From", typed: true, cell: (s) => s.source },
            { header: "Note", typed: true, cell: (s) => s.note },
            { header: "Since", cell: (s) => dateTime(s.createdAt, timeZone) },
            { header: "Action", pinned: true, cell: (s) => <RemoveButton address={s.address} /> },
          ]}
        />
      </div>
    </>
  );
}
