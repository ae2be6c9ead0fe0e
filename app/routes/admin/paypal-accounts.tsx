import { Link } from "react-router";
import type { Route } from "./+types/paypal-accounts";
import { SingleFieldForm } from "#app/components/SingleFieldForm.tsx";
import { requireStaff } from "#app/lib/guards.server.ts";
import { AdminHeader } from "#app/components/admin/AdminHeader.tsx";
import { formAction } from "#app/lib/form.server.ts";

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireStaff(request, context, "payments");
  return {
    accounts: await context.services.paymentAccounts.list(),
    receiver: await context.services.paymentAccounts.receiver(),
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const viewer = await requireStaff(request, context, "payments");
  return formAction(await request.formData(), {
    run: (input) => context.services.paymentAccounts.add(input, viewer),
    success: "PayPal email is added",
    reset: true,
  });
}

export const meta: Route.MetaFunction = () => [{ title: "Payment account" }, { name: "robots", content: "noindex" }];

/** /add-paypal-Email: the add form and one card per record with its edit link. The first record receives payments. */
export default function PayPalAccounts({ loaderData: { accounts, receiver } }: Route.ComponentProps) {
  return (
    <>
      <AdminHeader title="Payment account" lead={`Payments go to ${receiver}.`} />
      <div className="rounded-2xl bg-white p-6 ring-1 ring-linen sm:p-8">
        <SingleFieldForm name="paypalEmail" label="PayPal email" intent="add" submit="Add PayPal Email" />
      </div>
      <ul className="mt-6 grid gap-4 sm:grid-cols-2">
        {accounts.map((a, i) => (
          <li key={a._id} className="rounded-2xl bg-white p-6 ring-1 ring-linen">
            <p className="text-sm break-all">{a.paypalEmail}</p>
            <p className="mt-1 text-xs text-mist">
              {i === 0 ? "Receives payments" : "Not used while the first account exists"}
            </p>
            <Link to={`/paypal-email/${a._id}`} className="btn-outline mt-4 px-4 py-2 text-xs">
              Edit
            </Link>
          </li>
        ))}
      </ul>
    </>
  );
}
