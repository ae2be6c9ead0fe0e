import { data, isRouteErrorResponse, Link } from "react-router";
import type { Route } from "./+types/item";
import { ErrorPanel } from "#app/components/ErrorPanel.tsx";
import { WAITING_CARD_TEXT } from "#app/components/ItemsGrid.tsx";
import { Generator, GeneratorError } from "#app/components/generator/Generator.tsx";
import GENERATOR_SCRIPT from "#app/components/generator/generator-inline.ts?inline-script";
import { requireUser } from "#app/lib/guards.server.ts";
import { plainPage } from "#app/lib/hydration.ts";
import { whenRefused } from "#app/lib/refusal.server.ts";

/**
 * Sent as a plain page with the generator's own small script instead of React (decision 057); reached from a page
 * React runs, React draws it and starts the same script from an effect. The script's text is only in the server's
 * build: the browser's leaves it out (Vite replaces import.meta.env.SSR).
 */
export const handle = plainPage(import.meta.env.SSR ? GENERATOR_SCRIPT : "");

export async function loader({ request, context, params }: Route.LoaderArgs) {
  const viewer = await requireUser(request, context);
  // Without an active membership the service refuses (403): the error boundary below says so (spec 1, section 8); a
  // customer whose paid order waits for activation is told their items open then, with no offer to buy again.
  const item = await whenRefused(
    context.services.catalogue.get(viewer, params.id),
    403,
    async ({ message }): Promise<never> => {
      const waiting = (await context.services.orders.membership(viewer)).state === "waiting";
      throw data({ message, waiting }, { status: 403 });
    },
  );
  return {
    item: {
      id: item._id,
      itemName: item.itemName,
      itemsDescription: item.itemsDescription,
      itemsGuideline: item.itemsGuideline,
    },
    delayMs: context.config.generationDelayMs,
  };
}

export const meta: Route.MetaFunction = ({ data }) => [
  { title: data?.item ? `Generate ${data.item.itemName}` : "Premium Access Required" },
  { name: "robots", content: "noindex" },
];

export default function ItemGenerator({ loaderData: { item, delayMs } }: Route.ComponentProps) {
  return <Generator key={item.id} item={item} delayMs={delayMs} />;
}

/** No active membership: the page says so rather than showing an error page; anything else is the usual error. */
export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  if (!isRouteErrorResponse(error) || error.status !== 403) return <ErrorPanel error={error} />;
  const { message, waiting } = (error.data ?? {}) as { message?: string; waiting?: boolean };
  return (
    <section className="bg-sand/60">
      <div className="container-page py-16 text-center sm:py-24">
        <p className="eyebrow">Cold email generator</p>
        <h1 className="section-title">Premium Access Required</h1>
        <GeneratorError>{message ?? "No active membership found"}</GeneratorError>
        {waiting ? <p className="mt-4 text-mist">{WAITING_CARD_TEXT}.</p> : null}
        <div className="mt-8 flex justify-center gap-3">
          {waiting ? null : (
            <Link to="/pricing" className="btn-primary">
              Upgrade Membership
            </Link>
          )}
          <Link to="/dashboard" className="btn-outline">
            Dashboard
          </Link>
        </div>
      </div>
    </section>
  );
}
