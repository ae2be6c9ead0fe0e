import { redirect } from "react-router";
import type { Route } from "./+types/webhook";
import { ActionForm, useActionForm } from "#app/components/ActionForm.tsx";
import { WebhookFields } from "#app/components/admin/WebhookFields.tsx";
import { Badge, DataTable, type Column } from "#app/components/DataTable.tsx";
import { DangerButton } from "#app/components/forms.tsx";
import { formAction } from "#app/lib/form.server.ts";
import { requireStaff } from "#app/lib/guards.server.ts";
import { AdminHeader } from "#app/components/admin/AdminHeader.tsx";
import { usePollWhile } from "#app/components/admin/use-poll-while.ts";
import { dateTime } from "#domain/dates.ts";
import {
  DELIVERY_STATE_TONE,
  DELIVERY_STATE_WORDS,
  ENDPOINT_STATE_TONE,
  ENDPOINT_STATE_WORDS,
  endpointSchema,
} from "#domain/webhooks.ts";

const PER_PAGE = 25;

export async function loader({ request, context, params }: Route.LoaderArgs) {
  await requireStaff(request, context, "settings");
  const url = new URL(request.url);
  const [endpoint, { deliveries, page }] = await Promise.all([
    context.services.webhooks.get(params.id),
    context.services.webhooks.deliveries(params.id, { page: url.searchParams.get("page"), perPage: PER_PAGE }),
  ]);
  return {
    endpoint,
    deliveries,
    page,
    allowHttp: context.services.webhooks.localTesting,
    timeZone: context.config.timeZone,
  };
}

export async function action({ request, context, params }: Route.ActionArgs) {
  const viewer = await requireStaff(request, context, "settings");
  const form = await request.formData();
  const webhooks = context.services.webhooks;
  const id = params.id;
  switch (form.get("intent")) {
    case "update":
      return formAction(form, {
        schema: endpointSchema,
        run: (value) => webhooks.update(id, value, viewer),
        success: (r) => (r.modified ? "The endpoint is saved" : "Nothing changed"),
      });
    case "test":
      return formAction(form, {
        run: () => webhooks.sendTest(id, viewer),
        success: "A test event is on its way: its delivery shows below.",
      });
    case "pause":
    case "resume":
      return formAction(form, {
        run: () => webhooks.setState(id, { state: form.get("intent") === "pause" ? "paused" : "active" }, viewer),
        success: form.get("intent") === "pause" ? "The endpoint is paused" : "The endpoint is active again",
      });
    case "rotate":
      return formAction(form, {
        run: () => webhooks.rotateSecret(id, viewer),
        success: "A new signing secret is made: give it to the receiver, the old one no longer signs.",
      });
    case "resend":
      return formAction(form, {
        run: () => webhooks.resend(id, String(form.get("deliveryId") ?? ""), viewer),
        success: "The delivery is sent again",
      });
    case "delete": {
      const answer = await formAction(form, { run: () => webhooks.remove(id, viewer) });
      if ((answer.data as { ok?: boolean }).ok) throw redirect("/webhooks");
      return answer;
    }
    default:
      throw new Response("Unknown action", { status: 400 });
  }
}

export const meta: Route.MetaFunction = ({ data }) => [
  { title: data ? `Webhook: ${data.endpoint.description || data.endpoint.url}` : "Webhook" },
  { name: "robots", content: "noindex" },
];

/** A button that posts one intent of this page (with a hidden value or two). */
function IntentButton({
  id,
  intent,
  hidden,
  label,
  busyLabel,
  confirmText,
}: {
  id: string;
  intent: string;
  hidden?: Record<string, string>;
  label: string;
  busyLabel: string;
  confirmText?: string;
}) {
  const form = useActionForm({ id });
  return (
    <ActionForm
      handle={form}
      intent={intent}
      hidden={hidden}
      onSubmit={(e) => {
        if (confirmText && !window.confirm(confirmText)) e.preventDefault();
      }}
    >
      <button type="submit" className="btn-outline px-4 py-2 text-sm" disabled={form.busy} data-testid={id}>
        {form.busy ? busyLabel : label}
      </button>
    </ActionForm>
  );
}

/**
 * /webhooks/:id: one endpoint: its signing secret, a test event, pause or resume, a new secret, its address and
 * events, its deliveries (each sent again on demand), and deleting it.
 */
export default function Webhook({
  loaderData: { endpoint, deliveries, page, allowHttp, timeZone },
}: Route.ComponentProps) {
  const edit = useActionForm({ id: "webhook-edit" });
  const remove = useActionForm({ id: "webhook-delete" });
  // Deliveries waiting or being retried: the table follows them every few seconds while the page is open.
  usePollWhile(deliveries.some((d) => d.state === "pending" || d.state === "failing"));
  return (
    <>
      <AdminHeader
        title={endpoint.description || "Webhook endpoint"}
        lead={
          <span className="flex flex-wrap items-center gap-2">
            <span className="break-all">{endpoint.url}</span>
            <Badge tone={ENDPOINT_STATE_TONE[endpoint.state]}>{ENDPOINT_STATE_WORDS[endpoint.state]}</Badge>
            {endpoint.failingSince ? (
              <Badge tone="red">Failing since {dateTime(endpoint.failingSince, timeZone)}</Badge>
            ) : null}
          </span>
        }
        back={{ to: "/webhooks", label: "Webhooks" }}
      />
      {endpoint.stateReason ? <p className="mb-6 text-sm text-ink">{endpoint.stateReason}</p> : null}
      <SigningSecret endpoint={endpoint} />
      <h2 className="mb-4 text-xl text-forest">Deliveries</h2>
      <DataTable
        caption="Deliveries, newest first"
        testId="webhook-deliveries"
        rows={deliveries}
        rowKey={(d) => d.id}
        page={page}
        empty="Nothing sent yet."
        columns={deliveryColumns(timeZone)}
      />
      <h2 className="mt-10 mb-4 text-xl text-forest">Address and events</h2>
      <ActionForm
        handle={edit}
        intent="update"
        className="space-y-6 rounded-2xl bg-white p-6 ring-1 ring-linen sm:p-8"
        testId="webhook-edit"
      >
        <WebhookFields values={endpoint} allowHttp={allowHttp} />
        <button type="submit" className="btn-primary px-6 py-2.5 text-sm" disabled={edit.busy}>
          {edit.busy ? "Saving…" : "Save the endpoint"}
        </button>
      </ActionForm>
      <ActionForm
        handle={remove}
        intent="delete"
        className="mt-8 rounded-2xl bg-white p-6 ring-1 ring-linen sm:p-8"
        onSubmit={(e) => {
          if (!window.confirm("Delete this endpoint and its deliveries?")) e.preventDefault();
        }}
      >
        <p className="mb-4 text-sm text-ink">Deleting the endpoint stops every delivery to it and forgets them.</p>
        <DangerButton busy={remove.busy} busyLabel="Deleting…">
          Delete the endpoint
        </DangerButton>
      </ActionForm>
    </>
  );
}

type Endpoint = Route.ComponentProps["loaderData"]["endpoint"];
type Delivery = Route.ComponentProps["loaderData"]["deliveries"][number];

/** The secret (shown on demand), a test event, pause or resume, and a new secret. */
function SigningSecret({ endpoint }: { endpoint: Endpoint }) {
  return (
    <section className="mb-8 rounded-2xl bg-white p-6 ring-1 ring-linen sm:p-8">
      <h2 className="text-lg text-forest">Signing secret</h2>
      <p className="mt-1 text-sm text-mist">
        The receiver verifies each request with it and any Standard Webhooks library (the webhook-id, webhook-timestamp
        and webhook-signature headers).
      </p>
      <details className="mt-3">
        <summary className="cursor-pointer text-sm text-forest">Show the secret</summary>
        <code className="mt-2 block break-all rounded bg-linen/40 p-3 text-sm" data-testid="webhook-secret">
          {endpoint.secret}
        </code>
      </details>
      <div className="mt-5 flex flex-wrap gap-3">
        <IntentButton id="webhook-test" intent="test" label="Send test event" busyLabel="Sending…" />
        {endpoint.state === "active" ? (
          <IntentButton id="webhook-pause" intent="pause" label="Pause" busyLabel="Pausing…" />
        ) : (
          <IntentButton id="webhook-resume" intent="resume" label="Resume" busyLabel="Resuming…" />
        )}
        <IntentButton
          id="webhook-rotate"
          intent="rotate"
          label="Make a new secret"
          busyLabel="Making…"
          confirmText="Make a new signing secret? The receiver must use the new one from now on."
        />
      </div>
    </section>
  );
}

function deliveryColumns(timeZone: string): Column<Delivery>[] {
  return [
    { header: "Event", cell: (d) => <code className="text-xs">{d.eventType}</code> },
    {
      header: "Status",
      cell: (d) => <Badge tone={DELIVERY_STATE_TONE[d.state]}>{DELIVERY_STATE_WORDS[d.state]}</Badge>,
    },
    { header: "Attempts", cell: (d) => String(d.attempts) },
    { header: "Response", cell: (d) => (d.lastStatus === null ? (d.attempts ? "No answer" : "") : d.lastStatus) },
    { header: "Last error", typed: true, cell: (d) => d.lastError ?? "" },
    { header: "Created", cell: (d) => dateTime(d.createdAt, timeZone) },
    {
      header: "Next attempt",
      cell: (d) => (d.nextAttemptAt && d.state !== "succeeded" ? dateTime(d.nextAttemptAt, timeZone) : ""),
    },
    {
      header: "Action",
      pinned: true,
      cell: (d) => (
        <IntentButton
          id={`webhook-resend-${d.id}`}
          intent="resend"
          hidden={{ deliveryId: d.id }}
          label="Send again"
          busyLabel="Sending…"
        />
      ),
    },
  ];
}
