import { Link } from "react-router";
import type { Route } from "./+types/webhooks";
import { ActionForm, useActionForm } from "#app/components/ActionForm.tsx";
import { EMPTY_WEBHOOK, WebhookFields } from "#app/components/admin/WebhookFields.tsx";
import { Badge, DataTable } from "#app/components/DataTable.tsx";
import { formAction } from "#app/lib/form.server.ts";
import { requireStaff } from "#app/lib/guards.server.ts";
import { AdminHeader } from "#app/components/admin/AdminHeader.tsx";
import { dateTime } from "#domain/dates.ts";
import { ALL_EVENTS, ENDPOINT_STATE_TONE, ENDPOINT_STATE_WORDS, endpointSchema } from "#domain/webhooks.ts";

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireStaff(request, context, "settings");
  return {
    endpoints: await context.services.webhooks.list(),
    allowHttp: context.services.webhooks.localTesting,
    timeZone: context.config.timeZone,
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const viewer = await requireStaff(request, context, "settings");
  const form = await request.formData();
  return formAction(form, {
    schema: endpointSchema,
    run: (value) => context.services.webhooks.add(value, viewer),
    success: "The endpoint is added. Open it to copy its signing secret for the receiver.",
    reset: true,
  });
}

export const meta: Route.MetaFunction = () => [{ title: "Webhooks" }, { name: "robots", content: "noindex" }];

/** /webhooks: the addresses that receive the site's events, their state and failures, and a form to add one. */
export default function Webhooks({ loaderData: { endpoints, allowHttp, timeZone } }: Route.ComponentProps) {
  const add = useActionForm({ id: "webhook-add" });
  return (
    <>
      <AdminHeader
        title="Webhooks"
        lead="Other tools (bookkeeping, a CRM, Zapier) hear of orders, memberships, customers and messages as they happen: each event is posted to the addresses below, signed as Standard Webhooks are, and tried again for about a day when the receiver fails."
      />
      <DataTable
        caption="Webhook endpoints"
        testId="webhook-endpoints"
        rows={endpoints}
        rowKey={(e) => e.id}
        empty="No endpoint yet: add one below."
        columns={[
          {
            header: "Address",
            typed: true,
            cell: (e) => (
              <Link to={`/webhooks/${e.id}`} className="font-medium text-forest hover:text-clay">
                {e.url}
              </Link>
            ),
          },
          { header: "Description", typed: true, cell: (e) => e.description },
          {
            header: "Events",
            cell: (e) =>
              e.events.includes(ALL_EVENTS) ? "All" : e.events.length === 1 ? e.events[0] : `${e.events.length} events`,
          },
          {
            header: "State",
            cell: (e) => (
              <span className="flex flex-wrap gap-1">
                <Badge tone={ENDPOINT_STATE_TONE[e.state]}>{ENDPOINT_STATE_WORDS[e.state]}</Badge>
                {e.failingSince ? <Badge tone="red">Failing since {dateTime(e.failingSince, timeZone)}</Badge> : null}
              </span>
            ),
          },
          { header: "Waiting", cell: (e) => String(e.pending) },
          { header: "Failed", cell: (e) => String(e.failed) },
        ]}
      />
      <h2 className="mt-10 mb-4 text-xl text-forest">Add an endpoint</h2>
      <ActionForm
        handle={add}
        className="space-y-6 rounded-2xl bg-white p-6 ring-1 ring-linen sm:p-8"
        testId="webhook-add"
      >
        <WebhookFields values={EMPTY_WEBHOOK} allowHttp={allowHttp} />
        <button type="submit" className="btn-primary px-6 py-2.5 text-sm" disabled={add.busy}>
          {add.busy ? "Adding…" : "Add the endpoint"}
        </button>
      </ActionForm>
    </>
  );
}
