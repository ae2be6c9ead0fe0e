import { Link } from "react-router";
import type { Route } from "./+types/mail-settings";
import { ActionForm, useActionForm } from "#app/components/ActionForm.tsx";
import { formAction } from "#app/lib/form.server.ts";
import { requireStaff } from "#app/lib/guards.server.ts";
import { AdminHeader } from "#app/components/admin/AdminHeader.tsx";
import { mailSwitchSchema, mailTestSchema } from "#server/services/mails.ts";
import { isMailKind, MAIL_KIND_NAMES, MAIL_KINDS, type MailKind } from "#server/mail/kinds.ts";

export async function loader({ request, context }: Route.LoaderArgs) {
  const viewer = await requireStaff(request, context, "settings");
  const asked = new URL(request.url).searchParams.get("kind");
  const selected: MailKind = isMailKind(asked) ? asked : MAIL_KIND_NAMES[0]!;
  const [switches, preview] = await Promise.all([
    context.services.mails.switches(),
    context.services.mails.preview(selected, viewer.email),
  ]);
  return {
    kinds: MAIL_KIND_NAMES.map((kind) => ({ kind, ...MAIL_KINDS[kind], enabled: switches[kind] })),
    selected,
    preview: { subject: preview.subject, to: preview.to, html: preview.html, text: preview.text },
  };
}

/** Two forms: a kind's on/off switch ("switch"), and a test of a kind sent to the signed-in admin ("test"). */
export async function action({ request, context }: Route.ActionArgs) {
  const viewer = await requireStaff(request, context, "settings");
  const formData = await request.formData();
  if (formData.get("intent") === "test") {
    return formAction(formData, {
      schema: mailTestSchema,
      run: (value) => context.services.mails.sendTest(value.kind, viewer),
      success: `A test mail is on its way to ${viewer.email}.`,
    });
  }
  return formAction(formData, {
    schema: mailSwitchSchema,
    run: (value) => context.services.mails.setEnabled(value, viewer),
    success: (r) => (r.modified ? "Mail setting is Updated" : "Nothing changed"),
  });
}

export const meta: Route.MetaFunction = () => [{ title: "Mails" }, { name: "robots", content: "noindex" }];

const AUDIENCE = { customer: "To the customer", admins: "To every admin", visitor: "To the visitor" } as const;

/**
 * Every mail the site sends, with its switch, and the selected one rendered with sample data. The preview is the
 * mail's own HTML in a sandboxed frame (no scripts, no same-origin access), as a mail client would show it.
 */
export default function MailSettings({ loaderData: { kinds, selected, preview } }: Route.ComponentProps) {
  const current = kinds.find((k) => k.kind === selected)!;
  return (
    <>
      <AdminHeader
        title="Mails"
        lead="The mails the site sends. Turn one off and it is no longer sent; the account mails always are."
      />
      <div className="grid gap-8 xl:grid-cols-[minmax(0,26rem)_1fr]">
        <ul className="space-y-3" aria-label="Mails">
          {kinds.map((k) => (
            <li
              key={k.kind}
              className={`rounded-2xl bg-white p-4 ring-1 ${k.kind === selected ? "ring-2 ring-clay" : "ring-linen"}`}
              data-testid={`mail-${k.kind}`}
            >
              <div className="flex items-start justify-between gap-3">
                <div>
                  <Link
                    to={`?kind=${k.kind}`}
                    preventScrollReset
                    className="font-serif text-lg text-forest hover:text-clay"
                    aria-current={k.kind === selected ? "true" : undefined}
                  >
                    {k.label}
                  </Link>
                  <p className="mt-1 text-xs text-mist">
                    {AUDIENCE[k.audience]} · {k.when}
                  </p>
                </div>
                {k.canTurnOff ? (
                  <Switch kind={k.kind} label={k.label} enabled={k.enabled} />
                ) : (
                  <span className="shrink-0 rounded-full bg-sand px-3 py-1 text-xs text-mist">Always sent</span>
                )}
              </div>
            </li>
          ))}
        </ul>
        <section aria-labelledby="mail-preview" className="min-w-0">
          <div className="mb-4 flex flex-wrap items-end justify-between gap-3">
            <div>
              <h2 id="mail-preview" className="font-serif text-xl text-forest">
                Preview: {current.label}
              </h2>
              <p className="mt-1 text-sm text-mist">
                Subject: <span data-testid="preview-subject">{preview.subject}</span>
              </p>
              <p className="text-xs text-mist">With sample data. {current.enabled ? "" : "This mail is turned off."}</p>
            </div>
            <TestButton kind={selected} to={preview.to} />
          </div>
          <iframe
            title={`Preview of the ${current.label} mail`}
            sandbox=""
            srcDoc={preview.html}
            className="h-[44rem] w-full rounded-2xl bg-white ring-1 ring-linen"
            data-testid="preview-frame"
          />
          <details className="mt-4 rounded-2xl bg-white p-4 ring-1 ring-linen">
            <summary className="cursor-pointer text-sm font-semibold text-forest">Plain-text version</summary>
            <pre className="mt-3 text-xs leading-relaxed whitespace-pre-wrap">{preview.text}</pre>
          </details>
        </section>
      </div>
    </>
  );
}

function Switch({ kind, label, enabled }: { kind: MailKind; label: string; enabled: boolean }) {
  const form = useActionForm({ id: `switch-${kind}` });
  return (
    <ActionForm handle={form} intent="switch" hidden={{ kind, enabled: String(!enabled) }} className="shrink-0">
      <button
        type="submit"
        role="switch"
        aria-checked={enabled}
        aria-label={`Send the ${label} mail`}
        disabled={form.busy}
        className={`relative inline-flex h-7 w-12 items-center rounded-full transition-colors ${enabled ? "bg-forest" : "bg-linen"}`}
      >
        <span
          aria-hidden="true"
          className={`inline-block h-5 w-5 rounded-full bg-white shadow transition-transform ${enabled ? "translate-x-6" : "translate-x-1"}`}
        />
      </button>
    </ActionForm>
  );
}

function TestButton({ kind, to }: { kind: MailKind; to: string }) {
  const form = useActionForm({ id: `test-${kind}` });
  return (
    <ActionForm handle={form} intent="test" hidden={{ kind }}>
      <button type="submit" className="btn-dark" disabled={form.busy} title={`To ${to}`}>
        {form.busy ? "Sending..." : "Send a test to me"}
      </button>
    </ActionForm>
  );
}
