import { data, Form, redirect, useNavigation } from "react-router";
import type { Route } from "./+types/order-now";
import { orderFormSchema } from "../../content/order-form";
import { FormAlert } from "../../components/AuthCard";
import { TextField, useClientValidation, type ActionFailure } from "../../components/forms";
import { requireUser } from "../../lib/guards.server";
import { formatPrice } from "../../lib/pricing";
import { isAppError } from "../../../server/lib/errors";

export async function loader({ request, context, params }: Route.LoaderArgs) {
  const viewer = await requireUser(request, context);
  const pkg = await context.services.content.get("pricing", params.id).catch(() => {
    throw data({ message: "This package does not exist." }, { status: 404 });
  });
  return {
    email: viewer.email,
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
  const form = Object.fromEntries(await request.formData()) as Record<string, string>;
  try {
    const order = await context.services.orders.create(viewer, params.id, form);
    throw redirect(`/pending-order?order=${order._id}`);
  } catch (error) {
    if (isAppError(error) && error.status < 500) {
      return data<ActionFailure>(
        { message: error.status === 400 ? undefined : error.message, errors: error.errors, values: form },
        { status: error.status },
      );
    }
    throw error;
  }
}

export const meta: Route.MetaFunction = ({ data }) => [
  { title: data ? `Order ${data.pkg.name}` : "Order" },
  { name: "robots", content: "noindex" },
];

/** 'Get started with our {package} Plan today.': the package is read-only; the customer gives name, address, country. */
export default function OrderNow({ loaderData: { pkg, email }, actionData }: Route.ComponentProps) {
  const busy = useNavigation().state === "submitting";
  const { error, onSubmit } = useClientValidation(orderFormSchema, actionData);
  const values = actionData?.values ?? {};
  return (
    <section className="bg-sand/60">
      <div className="container-page py-12 sm:py-16">
        <p className="eyebrow">Order</p>
        <h1 className="mt-2 text-3xl text-forest sm:text-4xl">Get started with our {pkg.name} Plan today.</h1>
        <div className="mt-10 grid gap-8 lg:grid-cols-[1fr_22rem]">
          <Form
            method="post"
            noValidate
            onSubmit={onSubmit}
            className="grid gap-5 rounded-3xl bg-white p-6 ring-1 ring-linen sm:grid-cols-2 sm:p-10"
          >
            {actionData?.message ? (
              <div className="sm:col-span-2">
                <FormAlert>{actionData.message}</FormAlert>
              </div>
            ) : null}
            <TextField label="Package" name="packageName" value={pkg.name} readOnly className="sm:col-span-2" />
            <TextField label="Price" name="packagePrice" value={formatPrice(pkg.price)} readOnly />
            <TextField label="Validity" name="packageValidity" value={`${pkg.validity} days`} readOnly />
            <TextField label="Email" name="customerEmail" value={email} readOnly className="sm:col-span-2" />
            <TextField
              label="Full Name"
              name="customerName"
              autoComplete="name"
              required
              defaultValue={values.customerName}
              error={error("customerName")}
              className="sm:col-span-2"
            />
            <TextField
              label="Address"
              name="customerAddress"
              autoComplete="street-address"
              required
              defaultValue={values.customerAddress}
              error={error("customerAddress")}
              className="sm:col-span-2"
            />
            <TextField
              label="Country"
              name="customerCountry"
              autoComplete="country-name"
              required
              defaultValue={values.customerCountry}
              error={error("customerCountry")}
              className="sm:col-span-2"
            />
            <div className="sm:col-span-2">
              <button type="submit" className="btn-primary w-full sm:w-auto" disabled={busy}>
                {busy ? "Placing your order…" : "Place Order Now"}
              </button>
            </div>
          </Form>
          <aside className="h-fit rounded-3xl bg-forest p-8 text-white">
            <h2 className="font-serif text-2xl">{pkg.name}</h2>
            <p className="mt-4 font-serif text-4xl text-brass">{formatPrice(pkg.price)}</p>
            <p className="mt-1 text-sm text-white/75">for {pkg.validity} days of membership</p>
            <p className="mt-6 text-sm leading-relaxed text-white/75">
              You pay with PayPal on the next step. Your membership starts once PayPal confirms the payment and the
              studio has set up your account.
            </p>
          </aside>
        </div>
      </div>
    </section>
  );
}
