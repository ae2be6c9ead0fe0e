import { useEffect, useRef } from "react";
import { Link, useNavigate } from "react-router";
import type { Route } from "./+types/order-cancelled";
import { ActionForm, useActionForm } from "#app/components/ActionForm.tsx";
import { FORM_ID_FIELD } from "#app/lib/form.ts";
import { formAction } from "#app/lib/form.server.ts";
import { requireUser } from "#app/lib/guards.server.ts";

export async function loader({ request, context, params }: Route.LoaderArgs) {
  const viewer = await requireUser(request, context);
  const order = await context.services.orders.get(viewer, params.id);
  // DESIGN.md deviation 3: a customer goes back to the dashboard, an admin to the back office.
  return { orderId: order._id, next: viewer.isAdmin ? "/admin" : "/dashboard" };
}

/** Marks the order Cancelled (the same rule as PUT /api/order-cancelled/{id}). */
export async function action({ request, context, params }: Route.ActionArgs) {
  const viewer = await requireUser(request, context);
  return formAction(await request.formData(), { run: () => context.services.orders.cancel(viewer, params.id) });
}

export const meta: Route.MetaFunction = () => [{ title: "Payment cancelled" }, { name: "robots", content: "noindex" }];

export const CANCEL_REDIRECT_MS = 1500;

const FORM_ID = "cancel";

/**
 * PayPal's cancel address: on arrival the page marks the order Cancelled (posting to this route's action), then moves
 * on after 1.5 s. Without JavaScript a button sends the same post.
 */
export default function OrderCancelled({ loaderData: { next } }: Route.ComponentProps) {
  const navigate = useNavigate();
  const form = useActionForm({ id: FORM_ID, feedback: "inline" });
  const { fetcher, answer } = form;
  const sent = useRef(false);
  useEffect(() => {
    if (sent.current || answer) return;
    sent.current = true;
    void fetcher.submit({ [FORM_ID_FIELD]: FORM_ID }, { method: "post" });
  }, [fetcher, answer]);
  const state = !answer ? "working" : answer.ok ? "done" : "failed";
  useEffect(() => {
    if (state === "failed") console.error("Payment update failed.");
    if (state !== "done") return;
    const timer = setTimeout(() => void navigate(next), CANCEL_REDIRECT_MS);
    return () => clearTimeout(timer);
  }, [state, next, navigate]);

  return (
    <section className="bg-sand/60">
      <div className="container-page max-w-2xl py-16 text-center">
        <div className="rounded-3xl bg-white p-10 ring-1 ring-linen" data-testid="cancel-state" data-state={state}>
          {state === "working" ? (
            <span
              className="mx-auto block h-12 w-12 animate-spin rounded-full border-4 border-linen border-t-clay"
              aria-label="Cancelling"
            />
          ) : null}
          <h1 className="mt-6 text-3xl text-forest">You have cancelled the payment</h1>
          {state === "failed" ? (
            <p className="mt-3 text-sm text-red-700" role="alert">
              {answer?.messages[0]}
            </p>
          ) : (
            <p className="mt-3 text-sm text-mist" role="status">
              {state === "done" ? "Nothing was charged. Taking you back…" : "Updating your order…"}
            </p>
          )}
          {state === "working" ? (
            <noscript>
              <ActionForm handle={form} className="mt-8">
                <button type="submit" className="btn-dark">
                  Mark the order cancelled
                </button>
              </ActionForm>
            </noscript>
          ) : (
            <Link to={next} className="btn-dark mt-8">
              Continue
            </Link>
          )}
        </div>
      </div>
    </section>
  );
}
