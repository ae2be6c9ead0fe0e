import { data } from "react-router";
import type { Route } from "./+types/security";
import {
  recoveryCodesText,
  twoFactorConfirmSchema,
  twoFactorOffSchema,
  twoFactorPasswordSchema,
} from "#domain/two-factor.ts";
import { ActionForm, useActionForm, type ActionFormHandle } from "#app/components/ActionForm.tsx";
import { FormAlert } from "#app/components/FormAlert.tsx";
import { TextField } from "#app/components/forms.tsx";
import { formAction } from "#app/lib/form.server.ts";
import { requireUser } from "#app/lib/guards.server.ts";

/**
 * Two-factor sign-in, the person's own (decision 040): on or off; turning it on (password → QR code and key → a first
 * code → the recovery codes, shown once); new recovery codes; turning it off (password and a code), which staff may
 * not do while their role requires it. Staff who must turn it on are sent here by the back office's guards. It draws
 * its content only: the account area's layout (sections.ts) gives the frame, the heading and the sub-navigation.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const viewer = await requireUser(request, context);
  const state = await context.services.twoFactor.state(viewer.id);
  const { required, mayTurnOff } = context.services.twoFactor.rulesFor(viewer.staffRole);
  return {
    email: viewer.email,
    enabled: state.enabled,
    pending: state.pending ? { qrSvg: state.pending.qrSvg, manualKey: state.pending.manualKey } : null,
    recoveryCodesLeft: state.recoveryCodesLeft,
    due: viewer.twoFactorDue,
    required,
    mayTurnOff,
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const viewer = await requireUser(request, context);
  const form = await request.formData();
  const service = context.services.twoFactor;
  const intent = String(form.get("intent") ?? "");
  if (intent === "start") {
    return formAction(form, {
      schema: twoFactorPasswordSchema,
      hide: ["password"],
      run: (value) => service.startEnrolment(viewer.id, value, request.headers),
      success: "Scan the code with your authenticator app, then enter the code it shows.",
    });
  }
  if (intent === "confirm" || intent === "codes") {
    // The recovery codes travel in this one answer only: the page shows them once.
    let codes: string[] = [];
    let headers: Headers | undefined;
    const answer = await formAction(form, {
      schema: intent === "confirm" ? twoFactorConfirmSchema : twoFactorPasswordSchema,
      hide: ["password"],
      run: async (value) => {
        if (intent === "confirm") {
          ({ recoveryCodes: codes, headers } = await service.confirmEnrolment(viewer.id, value, request.headers));
        } else {
          codes = await service.regenerateRecoveryCodes(viewer.id, value, request.headers);
        }
      },
      success:
        intent === "confirm"
          ? "Two-factor sign-in is on. Save your recovery codes now: they are shown only once."
          : "New recovery codes are ready; the old ones no longer work. Save them now: they are shown only once.",
    });
    return data({ ...answer.data, recoveryCodes: codes }, { status: answer.init?.status ?? 200, headers });
  }
  if (intent === "off") {
    return formAction(form, {
      schema: twoFactorOffSchema,
      hide: ["password", "code"],
      run: () => service.turnOff(viewer.id, viewer.staffRole, Object.fromEntries(form)),
      success: "Two-factor sign-in is off.",
    });
  }
  throw data({ message: "Unknown form" }, { status: 400 });
}

export const meta: Route.MetaFunction = () => [{ title: "Two-factor sign-in" }, { name: "robots", content: "noindex" }];

type CodesAnswer = { recoveryCodes?: string[] } | undefined;

export default function Security({ loaderData }: Route.ComponentProps) {
  const { enabled, pending, recoveryCodesLeft, due, required, mayTurnOff, email } = loaderData;
  const start = useActionForm({ id: "two-factor-start", feedback: "inline" });
  const confirm = useActionForm({ id: "two-factor-confirm", feedback: "inline" });
  const codes = useActionForm({ id: "two-factor-codes", feedback: "inline" });
  const off = useActionForm({ id: "two-factor-off", feedback: "inline" });
  const shownCodes = [confirm.answer, codes.answer]
    .map((answer) => (answer as CodesAnswer)?.recoveryCodes ?? [])
    .find((list) => list.length > 0);
  return (
    <div className="max-w-2xl">
      <div>
        <p className="text-sm text-mist">
          After your password, sign-in asks for a code from an authenticator app on your phone (such as Google
          Authenticator, Microsoft Authenticator or 1Password). Someone who learns your password still cannot sign in.
        </p>

        {due ? (
          <div className="mt-6">
            <FormAlert>Staff must use two-factor sign-in. Turn it on below to open the back office.</FormAlert>
          </div>
        ) : null}

        <div className="mt-6 rounded-2xl bg-white p-6 ring-1 ring-linen sm:p-8">
          <p className="text-sm text-forest" data-testid="two-factor-state">
            Two-factor sign-in is <strong>{enabled ? "on" : "off"}</strong>
            {enabled ? ` · ${recoveryCodesLeft} recovery ${recoveryCodesLeft === 1 ? "code" : "codes"} left` : ""}
          </p>

          {shownCodes ? <RecoveryCodes codes={shownCodes} email={email} /> : null}

          {!enabled && !pending ? (
            <ActionForm handle={start} intent="start" className="mt-6 space-y-4">
              <h2 className="text-xl text-forest">Turn on two-factor sign-in</h2>
              <TextField label="Password" name="password" type="password" autoComplete="current-password" required />
              <button type="submit" className="btn-dark" disabled={start.busy}>
                {start.busy ? "Checking…" : "Continue"}
              </button>
            </ActionForm>
          ) : null}

          {!enabled && pending ? <ScanToTurnOn pending={pending} confirm={confirm} /> : null}

          {enabled ? <WhileOn codes={codes} off={off} mayTurnOff={mayTurnOff} required={required} /> : null}
        </div>
      </div>
    </div>
  );
}

type SecurityData = Route.ComponentProps["loaderData"];

/** The second step of turning it on: the key as a QR code and as text, and the first code from the app. */
function ScanToTurnOn({
  pending,
  confirm,
}: {
  pending: NonNullable<SecurityData["pending"]>;
  confirm: ActionFormHandle;
}) {
  return (
    <div className="mt-6 space-y-4">
      <h2 className="text-xl text-forest">Scan this code with your authenticator app</h2>
      <div
        className="w-48 max-w-full rounded-xl bg-white p-2 ring-1 ring-linen"
        role="img"
        aria-label="QR code of your two-factor sign-in key"
        // The SVG is drawn on our server by the qrcode package from the key's otpauth:// address.
        dangerouslySetInnerHTML={{ __html: pending.qrSvg }}
      />
      <p className="text-sm text-mist">
        Can't scan it? Enter this key in the app instead:{" "}
        <code className="break-all font-mono text-forest" data-testid="two-factor-key">
          {pending.manualKey}
        </code>
      </p>
      <ActionForm handle={confirm} intent="confirm" className="space-y-4">
        <TextField
          label="Code from the app"
          name="code"
          inputMode="numeric"
          autoComplete="one-time-code"
          pattern="[0-9 ]{6,7}"
          maxLength={7}
          required
        />
        <button type="submit" className="btn-dark" disabled={confirm.busy}>
          {confirm.busy ? "Checking…" : "Turn on"}
        </button>
      </ActionForm>
    </div>
  );
}

/** While it is on: new recovery codes, and turning it off (for whom may). */
function WhileOn({
  codes,
  off,
  mayTurnOff,
  required,
}: Pick<SecurityData, "mayTurnOff" | "required"> & { codes: ActionFormHandle; off: ActionFormHandle }) {
  return (
    <div className="mt-6 space-y-8">
      <ActionForm handle={codes} intent="codes" className="space-y-4">
        <h2 className="text-xl text-forest">New recovery codes</h2>
        <p className="text-sm text-mist">Lost your codes, or used most of them? New ones replace all the old ones.</p>
        <TextField label="Password" name="password" type="password" autoComplete="current-password" required />
        <button type="submit" className="btn-outline" disabled={codes.busy}>
          {codes.busy ? "Making…" : "Make new recovery codes"}
        </button>
      </ActionForm>

      {mayTurnOff ? (
        <ActionForm handle={off} intent="off" className="space-y-4">
          <h2 className="text-xl text-forest">Turn off two-factor sign-in</h2>
          <TextField label="Password" name="password" type="password" autoComplete="current-password" required />
          <TextField label="Code from the app, or a recovery code" name="code" autoComplete="one-time-code" required />
          <button type="submit" className="btn-outline" disabled={off.busy}>
            {off.busy ? "Turning off…" : "Turn off"}
          </button>
        </ActionForm>
      ) : (
        <p className="text-sm text-mist">
          {required
            ? "Staff must keep two-factor sign-in on. If you lose your phone, sign in with a recovery code, or ask an admin to reset it."
            : null}
        </p>
      )}
    </div>
  );
}

/** The recovery codes, shown once: as a list, and as a text file to keep. */
function RecoveryCodes({ codes, email }: { codes: string[]; email: string }) {
  const file = recoveryCodesText("Atelier North", email, codes);
  return (
    <div className="mt-6 rounded-2xl bg-sand p-5" data-testid="recovery-codes">
      <h2 className="text-xl text-forest">Your recovery codes</h2>
      <p className="mt-1 text-sm text-mist">
        Each code signs you in once if you cannot use your phone. Keep them somewhere safe, away from your phone.
      </p>
      <ul className="mt-4 grid grid-cols-2 gap-2 font-mono text-sm text-forest">
        {codes.map((code) => (
          <li key={code}>{code}</li>
        ))}
      </ul>
      <a
        className="btn-outline mt-4 inline-block"
        download="atelier-north-recovery-codes.txt"
        href={`data:text/plain;charset=utf-8,${encodeURIComponent(file)}`}
      >
        Download as a text file
      </a>
    </div>
  );
}
