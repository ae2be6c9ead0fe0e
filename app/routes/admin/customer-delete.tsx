import type { Route } from "./+types/customer-delete";
import { ActionForm, useActionForm } from "#app/components/ActionForm.tsx";
import { FormAlert } from "#app/components/FormAlert.tsx";
import { formAction } from "#app/lib/form.server.ts";
import { requireStaff } from "#app/lib/guards.server.ts";
import { AdminHeader } from "#app/components/admin/AdminHeader.tsx";
import { longDate } from "#domain/dates.ts";
import { DangerButton } from "#app/components/forms.tsx";

/**
 * Erasing a customer at their request (a mail to the agency): this page is the confirmation. Staff are removed on the
 * users screen first; what is kept and why is decision 045.
 */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  await requireStaff(request, context, "customers");
  return {
    customer: await context.services.privacy.subject(params.id),
    timeZone: context.config.timeZone,
    backupsKept: context.services.privacy.backupsKept,
  };
}

export async function action({ request, context, params }: Route.ActionArgs) {
  const viewer = await requireStaff(request, context, "customers");
  return formAction(await request.formData(), {
    run: () => context.services.privacy.eraseCustomer(params.id, viewer),
    success: "The customer's data has been erased.",
  });
}

export const meta: Route.MetaFunction = () => [{ title: "Erase a customer" }, { name: "robots", content: "noindex" }];

export default function CustomerDelete({ loaderData: { customer, timeZone, backupsKept } }: Route.ComponentProps) {
  const form = useActionForm({ id: "erase-customer", feedback: "inline" });
  const back = { to: `/customers/${customer.id}`, label: "Customer" };
  if (customer.erased)
    return (
      <>
        <AdminHeader title="Customer erased" back={back} />
        <div className="rounded-2xl bg-white p-6 ring-1 ring-linen sm:p-8" role="status">
          <p>
            {form.shown?.ok ? "The customer's data has been erased." : "This customer's data has already been erased."}{" "}
            Their {customer.orders === 1 ? "order stays" : `${customer.orders} orders stay`} in the accounts, without
            their name, email or address.
          </p>
        </div>
      </>
    );
  return (
    <>
      <AdminHeader title="Erase a customer" back={back} />
      <article className="rounded-2xl bg-white p-6 ring-1 ring-linen sm:p-8">
        <dl className="grid gap-x-6 gap-y-2 text-sm sm:grid-cols-[10rem_1fr]">
          <dt className="text-mist">Name</dt>
          <dd>{customer.name || "—"}</dd>
          <dt className="text-mist">Email</dt>
          <dd>{customer.email}</dd>
          <dt className="text-mist">Customer since</dt>
          <dd>{longDate(customer.createdAt, timeZone)}</dd>
          <dt className="text-mist">Orders</dt>
          <dd>
            {customer.orders}
            {customer.unpaidOrders ? ` (${customer.unpaidOrders} unpaid)` : ""}
          </dd>
        </dl>
        {customer.staffRole ? (
          <div className="mt-6">
            <FormAlert>
              This person is on the staff ({customer.staffRole}). Remove them on the users screen first, then erase
              their data here.
            </FormAlert>
          </div>
        ) : (
          <>
            <div className="mt-6 space-y-3 text-sm text-ink/90">
              <p>Do this only when the customer asked for it. It cannot be undone.</p>
              <ul className="list-disc space-y-1.5 pl-5">
                <li>They can no longer sign in; their sessions and password are gone.</li>
                <li>
                  Their name, email, newsletter signup, messages, consents and pending mails are erased, everywhere, the
                  activity log included.
                </li>
                <li>
                  Their orders stay for the accounts (six years) with number, package, amount, dates, statuses, country
                  and PayPal&apos;s transaction id, and without name, email or address. Unpaid orders are cancelled.
                </li>
                <li>
                  The last {backupsKept} backups (one a day) still hold their data until newer ones replace them. Before
                  restoring one, note the customers erased since (activity log, kind Customer), and erase them again
                  after.
                </li>
              </ul>
            </div>
            <ActionForm handle={form} className="mt-6" testId="erase-customer-form">
              <DangerButton busy={form.busy} busyLabel="Erasing…" testId="erase-customer">
                Erase this customer
              </DangerButton>
            </ActionForm>
          </>
        )}
      </article>
    </>
  );
}
