import { useEffect, useState } from "react";
import { Link, useNavigate } from "react-router";
import type { Route } from "./+types/order-cancelled";
import { requireUser } from "../../lib/guards.server";
import { apiFetch } from "../../lib/api";

export async function loader({ request, context, params }: Route.LoaderArgs) {
  const viewer = await requireUser(request, context);
  const order = await context.services.orders.get(viewer, params.id);
  // DESIGN.md deviation 3: a customer goes back to the dashboard, an admin to the back office.
  return { orderId: order._id, next: viewer.isAdmin ? "/admin" : "/dashboard" };
}

export const meta: Route.MetaFunction = () => [{ title: "Payment cancelled" }, { name: "robots", content: "noindex" }];

export const CANCEL_REDIRECT_MS = 1500;

/** PayPal's cancel address: marks the order Cancelled (PUT /api/order-cancelled/{id}), then moves on after 1.5 s. */
export default function OrderCancelled({ loaderData: { orderId, next } }: Route.ComponentProps) {
  const navigate = useNavigate();
  const [state, setState] = useState<"working" | "done" | "failed">("working");
  const [error, setError] = useState("");
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    apiFetch(`/api/order-cancelled/${orderId}`, { method: "PUT", json: { paymentStatus: "Cancelled" } })
      .then((res) => {
        if (res.ok) {
          setState("done");
          timer = setTimeout(() => navigate(next), CANCEL_REDIRECT_MS);
        } else {
          console.error("Payment update failed.");
          setError((res.data as { error?: string }).error ?? "The order could not be cancelled.");
          setState("failed");
        }
      })
      .catch((e: unknown) => {
        console.error("An error occurred:", e);
        setError("We could not reach the site. Check your connection and try again.");
        setState("failed");
      });
    return () => clearTimeout(timer);
  }, [orderId, next, navigate]);

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
            <>
              <p className="mt-3 text-sm text-red-700" role="alert">
                {error}
              </p>
              <Link to={next} className="btn-dark mt-8">
                Continue
              </Link>
            </>
          ) : (
            <p className="mt-3 text-sm text-mist" role="status">
              {state === "done" ? "Nothing was charged. Taking you back…" : "Updating your order…"}
            </p>
          )}
        </div>
      </div>
    </section>
  );
}
