import type { Route } from "./+types/paypal-account";
import { SingleFieldCard } from "#app/components/SingleFieldForm.tsx";
import { requireStaff } from "#app/lib/guards.server.ts";
import { AdminHeader } from "#app/components/admin/AdminHeader.tsx";
import { formAction } from "#app/lib/form.server.ts";

export async function loader({ request, context, params }: Route.LoaderArgs) {
  await requireStaff(request, context, "payments");
  return { account: await context.services.paymentAccounts.get(params.id) };
}

export async function action({ request, context, params }: Route.ActionArgs) {
  const viewer = await requireStaff(request, context, "payments");
  return formAction(await request.formData(), {
    run: (input) => context.services.paymentAccounts.update(params.id, input, viewer),
    success: "PayPal email is updated",
  });
}

export const meta: Route.MetaFunction = () => [
  { title: "Edit payment account" },
  { name: "robots", content: "noindex" },
];

export default function PayPalAccount({ loaderData: { account } }: Route.ComponentProps) {
  return (
    <>
      <AdminHeader title="Edit payment account" back={{ to: "/add-paypal-Email", label: "Payment account" }} />
      <SingleFieldCard
        name="paypalEmail"
        label="PayPal email"
        intent="update"
        id={account._id}
        defaultValue={account.paypalEmail}
        submit="Update PayPal Email"
      />
    </>
  );
}
