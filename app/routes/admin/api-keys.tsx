import { useState } from "react";
import { data } from "react-router";
import type { Route } from "./+types/api-keys";
import { apiKeyInputSchema, AREA_LABEL, KEY_ACCESS, KEY_ACCESS_LABEL } from "#domain/api-keys.ts";
import { STAFF_AREAS } from "#domain/capabilities.ts";
import { dateTime } from "#domain/dates.ts";
import type { ApiKeyRecord } from "#server/services/api-keys.ts";
import { ActionForm, RowAnswer, useActionForm, useFieldState } from "#app/components/ActionForm.tsx";
import { Badge, DataTable } from "#app/components/DataTable.tsx";
import { DangerButton, SelectField, TextField } from "#app/components/forms.tsx";
import { formAction } from "#app/lib/form.server.ts";
import { requireStaff } from "#app/lib/guards.server.ts";
import { AdminHeader } from "#app/components/admin/AdminHeader.tsx";

const PER_PAGE = 20;

/** API keys (issue 37, decision 077): Admins only (area settings). */
export async function loader({ request, context }: Route.LoaderArgs) {
  await requireStaff(request, context, "settings");
  const page = new URL(request.url).searchParams.get("page") ?? undefined;
  const { keys, page: info } = await context.services.apiKeys.list({ page, perPage: PER_PAGE });
  return { keys, page: info, timeZone: context.config.timeZone };
}

/** Make a key (its secret answered to this page once), or revoke one. */
export async function action({ request, context }: Route.ActionArgs) {
  const viewer = await requireStaff(request, context, "settings");
  const form = await request.formData();
  const { apiKeys } = context.services;
  if (form.get("intent") === "revoke") {
    const id = String(form.get("id") ?? "");
    return formAction(form, {
      run: () => apiKeys.revoke(id, viewer),
      success: "The key is revoked: it is refused from now on.",
    });
  }
  if (form.get("intent") !== "create") throw data({ message: "Unknown form" }, { status: 400 });
  return formAction(form, {
    schema: apiKeyInputSchema,
    run: (value) => apiKeys.create(value, viewer),
    success: (r) => `The key for “${r.key.name}” is made. Copy it now: it is not shown again.`,
    data: (r) => ({ secret: r.secret, name: r.key.name }),
    reset: true,
  });
}

export const meta: Route.MetaFunction = () => [{ title: "API keys" }, { name: "robots", content: "noindex" }];

/** /api-keys: the form that makes a key (its secret shown once, with a copy button), then every key with its use. */
export default function ApiKeys({ loaderData: { keys, page, timeZone } }: Route.ComponentProps) {
  const form = useActionForm({ id: "api-key-add" });
  const made = form.answer?.ok ? form.answer.data : undefined;
  const when = (at: string | null) => (at ? dateTime(at, timeZone) : "Never");
  return (
    <>
      <AdminHeader
        title="API keys"
        lead="A key lets another program (bookkeeping, a CRM, Zapier) use the REST API, in the areas you choose."
      />
      {made?.secret ? <NewKey name={made.name ?? ""} secret={made.secret} /> : null}
      <ActionForm
        handle={form}
        intent="create"
        className="space-y-6 rounded-2xl bg-white p-6 ring-1 ring-linen sm:p-8"
        testId="api-key-add"
      >
        <div className="grid gap-5 sm:grid-cols-2">
          <TextField label="Integration" name="name" required maxLength={80} placeholder="Bookkeeping" />
          <SelectField
            label="Access"
            name="access"
            defaultValue="read"
            options={KEY_ACCESS.map((a) => ({ value: a, label: KEY_ACCESS_LABEL[a] }))}
          />
          <AreaBoxes />
        </div>
        <button type="submit" className="btn-primary px-6 py-2.5 text-sm" disabled={form.busy}>
          {form.busy ? "Making…" : "Make API key"}
        </button>
      </ActionForm>
      <div className="mt-8">
        <RowAnswer prefix="revoke:" />
        <DataTable
          caption="API keys"
          testId="api-keys"
          rows={keys}
          rowKey={(k) => k._id}
          page={page}
          empty="No API key yet."
          columns={[
            { header: "Integration", typed: true, cell: (k) => k.name },
            { header: "Key", cell: (k) => <span className="font-mono text-xs">{k.label}</span> },
            { header: "Areas", cell: (k) => k.areas.map((a) => AREA_LABEL[a]).join(", ") },
            { header: "Access", cell: (k) => KEY_ACCESS_LABEL[k.access] },
            { header: "Made", cell: (k) => `${when(k.createdAt)} by ${k.createdBy}` },
            { header: "Last used", cell: (k) => when(k.lastUsedAt) },
            {
              header: "State",
              pinned: true,
              cell: (k) =>
                k.revokedAt ? <Badge tone="grey">{`Revoked ${when(k.revokedAt)}`}</Badge> : <RevokeButton apiKey={k} />,
            },
          ]}
        />
      </div>
    </>
  );
}

/** The areas a key may use: one box per staff area (domain/capabilities.ts), none ticked to start. */
function AreaBoxes() {
  const error = useFieldState("areas")?.error;
  return (
    <fieldset className="sm:col-span-2">
      <legend className="field-label">Areas it may use</legend>
      <p className="text-xs text-mist">As a staff member of these areas would; every other call answers 403.</p>
      <div className="mt-2 grid gap-x-6 gap-y-2 sm:grid-cols-3">
        {STAFF_AREAS.map((area) => (
          <label key={area} className="flex items-center gap-2 text-sm">
            <input type="checkbox" name="areas" value={area} />
            {AREA_LABEL[area]}
          </label>
        ))}
      </div>
      {error ? <p className="field-error">{error}</p> : null}
    </fieldset>
  );
}

/** The new key, shown this once: to copy into the integration. */
function NewKey({ name, secret }: { name: string; secret: string }) {
  const [copied, setCopied] = useState(false);
  return (
    <section
      className="mb-6 rounded-2xl bg-white p-6 ring-2 ring-forest sm:p-8"
      aria-labelledby="new-key-title"
      data-testid="api-key-secret"
    >
      <h2 id="new-key-title" className="text-base font-semibold text-ink">
        The key for “{name}”
      </h2>
      <p className="mt-1 text-sm text-mist">
        Copy it now and keep it somewhere safe: it is shown only this once. Send it as{" "}
        <code>Authorization: Bearer …</code>.
      </p>
      <div className="mt-4 flex flex-wrap items-center gap-3">
        <code className="break-all rounded-lg bg-linen/40 px-3 py-2 font-mono text-sm" data-testid="api-key-value">
          {secret}
        </code>
        <button
          type="button"
          className="btn-outline px-4 py-2 text-xs"
          onClick={() => void navigator.clipboard?.writeText(secret).then(() => setCopied(true))}
        >
          {copied ? "Copied" : "Copy"}
        </button>
      </div>
    </section>
  );
}

/** Revokes a key in one click: it is refused from the next request on. */
function RevokeButton({ apiKey }: { apiKey: ApiKeyRecord }) {
  const form = useActionForm({ id: `revoke:${apiKey._id}` });
  return (
    <ActionForm handle={form} intent="revoke" hidden={{ id: apiKey._id }}>
      <DangerButton busy={form.busy} busyLabel="Revoking…" compact>
        Revoke<span className="sr-only"> the key for {apiKey.name}</span>
      </DangerButton>
    </ActionForm>
  );
}
