import { randomBytes } from "node:crypto";
import { get, put, type Sim } from "./context";
import { paypalError } from "./errors";
import { SIMULATOR_CREDENTIALS, TOKEN_SECONDS, type Answer } from "./model";

// ── Faults, the request log, the OAuth server ────────────────────────────────────────────────────────────────────
/** The next `times` calls to a path (its start, after the prefix) answer `status`, or wait `delayMs` first. */
export function fault(sim: Sim, fault: { path: string; status?: number; delayMs?: number; times?: number }) {
  sim.faults.push({ ...fault, times: fault.times ?? 1 });
}

/** Notes a call and applies a pending fault to it: an answer to send instead, or null to go on. */
export async function intercept(
  sim: Sim,
  method: string,
  path: string,
  requestId: string | null,
): Promise<Answer | null> {
  const { faults, log } = sim;
  log.push({ method, path, requestId, at: sim.deps.now() });
  if (log.length > 1000) log.shift();
  const fault = faults.find((f) => path.startsWith(f.path));
  if (!fault) return null;
  if (--fault.times <= 0) faults.splice(faults.indexOf(fault), 1);
  if (fault.delayMs) await new Promise((resolve) => setTimeout(resolve, fault.delayMs));
  if (fault.status)
    return paypalError(
      fault.status,
      fault.status === 429 ? "RATE_LIMIT_REACHED" : "INTERNAL_SERVICE_ERROR",
      fault.status === 429
        ? "Too many requests. Blocked due to rate limiting."
        : "An internal service error has occurred.",
    );
  return null;
}

export async function token(
  sim: Sim,
  authorization: string | undefined,
  body: Record<string, unknown>,
): Promise<Answer> {
  const [scheme, encoded] = (authorization ?? "").split(" ");
  const [id, secret] = Buffer.from(encoded ?? "", "base64")
    .toString("utf8")
    .split(":");
  if (scheme !== "Basic" || id !== SIMULATOR_CREDENTIALS.clientId || secret !== SIMULATOR_CREDENTIALS.clientSecret)
    return { status: 401, body: { error: "invalid_client", error_description: "Client Authentication failed" } };
  if (body.grant_type !== "client_credentials")
    return { status: 400, body: { error: "unsupported_grant_type", error_description: "Grant Type is NULL" } };
  const token = "A21AA" + randomBytes(32).toString("base64url");
  await put(sim.deps.db, "token", token, { expiresAt: sim.deps.now().getTime() + TOKEN_SECONDS * 1000 });
  return {
    status: 200,
    body: {
      scope:
        "https://uri.paypal.com/services/payments/refund https://uri.paypal.com/services/subscriptions https://uri.paypal.com/services/applications/webhooks",
      access_token: token,
      token_type: "Bearer",
      app_id: "APP-SIMULATOR",
      expires_in: TOKEN_SECONDS,
      nonce: `${sim.iso()}${randomBytes(8).toString("hex")}`,
    },
  };
}

/** Whether a bearer token is one this simulator issued and still valid. */
export async function authorized(sim: Sim, authorization: string | undefined): Promise<boolean> {
  const m = /^Bearer (\S+)$/.exec(authorization ?? "");
  if (!m) return false;
  const row = await get(sim.deps.db, "token", m[1]!);
  return Boolean(row && (row.expiresAt as number) > sim.deps.now().getTime());
}
