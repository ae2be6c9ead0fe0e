import { randomUUID } from "node:crypto";
import type { z } from "zod";
import { withDeps } from "#server/lib/with-deps.ts";
import { ProviderRefusedError, ProviderUnavailableError } from "../provider";
import {
  accessToken,
  capture as captureShape,
  errorBody,
  oauthError,
  order,
  plan,
  product,
  refund,
  subscription,
  verification,
  webhook,
  webhookList,
  type CreateOrder,
  type CreatePlan,
  type CreateProduct,
  type CreateSubscription,
  type ErrorBody,
  type Money,
  type WebhookEvent,
} from "./shapes";

/** PayPal's REST hosts (decision 064); the simulator's is this server's own (`simulatorRestBase`). */
export const PAYPAL_REST_HOSTS = {
  live: "https://api-m.paypal.com",
  sandbox: "https://api-m.sandbox.paypal.com",
} as const;

/**
 * PayPal said no (a 4xx): its `name` (UNPROCESSABLE_ENTITY, RESOURCE_NOT_FOUND …), `message`, and each detail's
 * `issue` (REFUND_TIME_LIMIT_EXCEEDED …) and `description`. `refusal` is the sentence a screen can show.
 */
export class PayPalRefusedError extends ProviderRefusedError {
  override readonly name = "PayPalRefusedError";
  constructor(
    readonly status: number,
    readonly paypalName: string,
    readonly paypalMessage: string,
    readonly details: NonNullable<ErrorBody["details"]>,
    readonly debugId: string | undefined,
  ) {
    super(`PayPal refused (${status} ${paypalName}): ${details[0]?.description ?? paypalMessage}`);
  }
  /** PayPal's own words for the first issue (its description), else its message. */
  get refusal(): string {
    return this.details[0]?.description ?? this.paypalMessage;
  }
  get issues(): string[] {
    return this.details.map((d) => d.issue);
  }
}

/** PayPal could not be reached or kept failing (timeouts, network errors, 5xx, 429) after every attempt. */
export class PayPalUnavailableError extends ProviderUnavailableError {
  override readonly name = "PayPalUnavailableError";
  constructor(
    message: string,
    readonly attempts: number,
    readonly lastStatus: number | null,
  ) {
    super(message);
  }
}

export const isPayPalRefused = (e: unknown): e is PayPalRefusedError => e instanceof PayPalRefusedError;
export const isPayPalUnavailable = (e: unknown): e is PayPalUnavailableError => e instanceof PayPalUnavailableError;

export interface PayPalClientOptions {
  /** The REST host (PAYPAL_REST_HOSTS, or the simulator's base on this server); read at each call. */
  baseUrl: () => string;
  clientId: string;
  clientSecret: string;
  /** Each attempt's limit. */
  timeoutMs?: number;
  /** Attempts in all for a call that fails with a timeout, a network error, 5xx or 429 (the same idempotency key). */
  maxAttempts?: number;
  /** The wait before attempt n+1 (n from 1); by default 250 ms × 2^(n-1) with jitter, capped at 4 s. */
  backoffMs?: (attempt: number) => number;
  /** The clock the token's expiry is measured on. */
  now?: () => number;
  fetch?: typeof fetch;
}

interface Call<T> {
  method: "GET" | "POST";
  path: string;
  body?: unknown;
  /** PayPal-Request-Id: the same on every attempt, so a retried create, capture or refund happens once. */
  requestId?: string;
  shape: z.ZodType<T> | null;
}

const REFRESH_MARGIN_MS = 60_000;

/** A client's settings with their defaults, and its token: the one cached, and the request for a new one under way. */
interface Session {
  options: PayPalClientOptions;
  timeoutMs: number;
  maxAttempts: number;
  backoff: (attempt: number) => number;
  now: () => number;
  doFetch: typeof fetch;
  token: { value: string; expiresAt: number } | null;
  pending: Promise<string> | null;
}

/** A call to PayPal's REST API, its answer parsed with the call's shape. */
type Caller = <T>(c: Call<T>) => Promise<T>;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** One HTTP exchange with retries; returns the final response's status and parsed JSON (or null). */
async function exchange(
  { timeoutMs, maxAttempts, backoff, doFetch }: Session,
  build: () => Promise<{ url: string; init: RequestInit }>,
): Promise<{ status: number; body: unknown; headers: Headers }> {
  let lastStatus: number | null = null;
  let lastReason = "";
  for (let attempt = 1; attempt <= maxAttempts; attempt++) {
    if (attempt > 1) await sleep(backoff(attempt - 1));
    const { url, init } = await build();
    let res: Response;
    try {
      res = await doFetch(url, { ...init, signal: AbortSignal.timeout(timeoutMs) });
    } catch (error) {
      lastStatus = null;
      lastReason =
        error instanceof Error && (error.name === "TimeoutError" || error.name === "AbortError")
          ? `no answer within ${timeoutMs} ms`
          : `unreachable (${error instanceof Error ? error.message : String(error)})`;
      continue;
    }
    let text: string;
    try {
      text = await res.text();
    } catch {
      lastStatus = res.status;
      lastReason = `the answer was cut off (${res.status})`;
      continue;
    }
    if (res.status >= 500 || res.status === 429) {
      lastStatus = res.status;
      lastReason = `answered ${res.status}`;
      // PayPal's Retry-After (seconds) is honoured when it is short; a longer one ends the attempts.
      const after = Number(res.headers.get("retry-after"));
      if (res.status === 429 && after > 0) {
        if (after * 1000 > 10_000) break;
        await sleep(after * 1000);
      }
      continue;
    }
    let body: unknown = null;
    if (text) {
      try {
        body = JSON.parse(text);
      } catch {
        throw new PayPalUnavailableError(
          `PayPal answered ${res.status} with something that is not JSON.`,
          attempt,
          res.status,
        );
      }
    }
    return { status: res.status, body, headers: res.headers };
  }
  throw new PayPalUnavailableError(
    `PayPal is unavailable: ${lastReason} after ${maxAttempts} attempt${maxAttempts === 1 ? "" : "s"}.`,
    maxAttempts,
    lastStatus,
  );
}

async function fetchToken(session: Session): Promise<string> {
  const { options, now } = session;
  const basic = Buffer.from(`${options.clientId}:${options.clientSecret}`).toString("base64");
  const { status, body } = await exchange(session, async () => ({
    url: options.baseUrl() + "/v1/oauth2/token",
    init: {
      method: "POST",
      headers: {
        authorization: `Basic ${basic}`,
        "content-type": "application/x-www-form-urlencoded",
        accept: "application/json",
      },
      body: "grant_type=client_credentials",
    },
  }));
  if (status !== 200) {
    const oauth = oauthError.safeParse(body);
    if (oauth.success)
      throw new PayPalRefusedError(
        status,
        oauth.data.error,
        oauth.data.error_description ?? oauth.data.error,
        [],
        undefined,
      );
    throw refusedOf(status, body);
  }
  const parsed = parse(accessToken, body, "/v1/oauth2/token");
  session.token = { value: parsed.access_token, expiresAt: now() + parsed.expires_in * 1000 };
  return parsed.access_token;
}

/** The cached token, or a new one (one request however many calls wait for it). */
async function bearer(session: Session): Promise<string> {
  const { token, now } = session;
  if (token && token.expiresAt - REFRESH_MARGIN_MS > now()) return token.value;
  session.pending ??= fetchToken(session).finally(() => {
    session.pending = null;
  });
  return session.pending;
}

async function callApi<T>(session: Session, c: Call<T>): Promise<T> {
  for (let renewed = false; ; renewed = true) {
    const { status, body } = await exchange(session, async () => ({
      url: session.options.baseUrl() + c.path,
      init: {
        method: c.method,
        headers: {
          authorization: `Bearer ${await bearer(session)}`,
          accept: "application/json",
          ...(c.body !== undefined ? { "content-type": "application/json" } : {}),
          ...(c.requestId ? { "paypal-request-id": c.requestId } : {}),
          ...(c.method === "POST" ? { prefer: "return=representation" } : {}),
        },
        body: c.body !== undefined ? JSON.stringify(c.body) : undefined,
      },
    }));
    if (status === 401 && !renewed && oauthError.safeParse(body).success) {
      // The token expired early or was revoked: one more try with a fresh one.
      session.token = null;
      continue;
    }
    if (status >= 400) throw refusedOf(status, body);
    return c.shape ? parse(c.shape, body, c.path) : (undefined as T);
  }
}

const id = (requestId?: string) => requestId ?? randomUUID();

const ordersApi = (call: Caller) => ({
  create: (body: CreateOrder, requestId?: string) =>
    call({ method: "POST", path: "/v2/checkout/orders", body, requestId: id(requestId), shape: order }),
  get: (orderId: string) =>
    call({ method: "GET", path: `/v2/checkout/orders/${encodeURIComponent(orderId)}`, shape: order }),
  capture: (orderId: string, requestId?: string) =>
    call({
      method: "POST",
      path: `/v2/checkout/orders/${encodeURIComponent(orderId)}/capture`,
      body: {},
      requestId: id(requestId),
      shape: order,
    }),
});

const capturesApi = (call: Caller) => ({
  get: (captureId: string) =>
    call({ method: "GET", path: `/v2/payments/captures/${encodeURIComponent(captureId)}`, shape: captureShape }),
  /** Refunds the whole capture (no amount) or a part of it. */
  refund: (captureId: string, what: { amount?: Money; invoiceId?: string; noteToPayer?: string }, requestId?: string) =>
    call({
      method: "POST",
      path: `/v2/payments/captures/${encodeURIComponent(captureId)}/refund`,
      body: {
        ...(what.amount ? { amount: what.amount } : {}),
        ...(what.invoiceId ? { invoice_id: what.invoiceId } : {}),
        ...(what.noteToPayer ? { note_to_payer: what.noteToPayer } : {}),
      },
      requestId: id(requestId),
      shape: refund,
    }),
});

const productsApi = (call: Caller) => ({
  create: (body: CreateProduct, requestId?: string) =>
    call({ method: "POST", path: "/v1/catalogs/products", body, requestId: id(requestId), shape: product }),
});

const plansApi = (call: Caller) => ({
  create: (body: CreatePlan, requestId?: string) =>
    call({ method: "POST", path: "/v1/billing/plans", body, requestId: id(requestId), shape: plan }),
  get: (planId: string) =>
    call({ method: "GET", path: `/v1/billing/plans/${encodeURIComponent(planId)}`, shape: plan }),
});

const subscriptionsApi = (call: Caller) => ({
  create: (body: CreateSubscription, requestId?: string) =>
    call({
      method: "POST",
      path: "/v1/billing/subscriptions",
      body,
      requestId: id(requestId),
      shape: subscription,
    }),
  get: (subscriptionId: string) =>
    call({
      method: "GET",
      path: `/v1/billing/subscriptions/${encodeURIComponent(subscriptionId)}`,
      shape: subscription,
    }),
  /** PayPal answers 204; cancelling one that is no longer active or suspended is refused (SUBSCRIPTION_STATUS_INVALID). */
  cancel: (subscriptionId: string, reason: string, requestId?: string) =>
    call({
      method: "POST",
      path: `/v1/billing/subscriptions/${encodeURIComponent(subscriptionId)}/cancel`,
      body: { reason },
      requestId: id(requestId),
      shape: null,
    }),
});

const webhooksApi = (call: Caller) => ({
  list: async () => (await call({ method: "GET", path: "/v1/notifications/webhooks", shape: webhookList })).webhooks,
  create: (url: string, eventTypes: string[]) =>
    call({
      method: "POST",
      path: "/v1/notifications/webhooks",
      body: { url, event_types: eventTypes.map((name) => ({ name })) },
      shape: webhook,
    }),
  /**
   * PayPal's verify-webhook-signature for a received webhook: its transmission headers, the configured webhook id
   * and the event as received. SUCCESS or FAILURE; a missing header is FAILURE without asking.
   */
  verifySignature: async (input: {
    headers: Record<string, string | undefined>;
    webhookId: string;
    event: WebhookEvent | Record<string, unknown>;
  }): Promise<"SUCCESS" | "FAILURE"> => {
    const h = input.headers;
    const fields = {
      auth_algo: h["paypal-auth-algo"],
      cert_url: h["paypal-cert-url"],
      transmission_id: h["paypal-transmission-id"],
      transmission_sig: h["paypal-transmission-sig"],
      transmission_time: h["paypal-transmission-time"],
    };
    if (Object.values(fields).some((v) => !v)) return "FAILURE";
    const answer = await call({
      method: "POST",
      path: "/v1/notifications/verify-webhook-signature",
      body: { ...fields, webhook_id: input.webhookId, webhook_event: input.event },
      shape: verification,
    });
    return answer.verification_status;
  },
});

/**
 * A small typed client of PayPal's REST API (decision 064): OAuth2 client credentials (the token cached until a minute
 * before it expires; a 401 invalid_token drops it and asks once more), bounded retries with backoff on timeouts,
 * network errors, 5xx and 429 with the same PayPal-Request-Id, answers parsed with zod, refusals typed. It never
 * touches the database: callers call it outside any transaction.
 */
export function createPayPalClient(options: PayPalClientOptions) {
  const session: Session = {
    options,
    timeoutMs: options.timeoutMs ?? 10_000,
    maxAttempts: Math.max(1, options.maxAttempts ?? 3),
    backoff: options.backoffMs ?? ((n: number) => Math.min(4000, 250 * 2 ** (n - 1)) * (0.75 + Math.random() * 0.5)),
    now: options.now ?? Date.now,
    doFetch: options.fetch ?? fetch,
    token: null,
    pending: null,
  };
  const caller: Caller = (c) => callApi(session, c);
  return {
    /** The access token (cached); exposed for the start-up check of credentials. */
    accessToken: withDeps(session, bearer),
    orders: ordersApi(caller),
    captures: capturesApi(caller),
    products: productsApi(caller),
    plans: plansApi(caller),
    subscriptions: subscriptionsApi(caller),
    webhooks: webhooksApi(caller),
  };
}
export type PayPalClient = ReturnType<typeof createPayPalClient>;

function refusedOf(status: number, body: unknown): PayPalRefusedError {
  const parsed = errorBody.safeParse(body);
  if (parsed.success)
    return new PayPalRefusedError(
      status,
      parsed.data.name,
      parsed.data.message ?? parsed.data.name,
      parsed.data.details ?? [],
      parsed.data.debug_id,
    );
  return new PayPalRefusedError(status, `HTTP_${status}`, `PayPal answered ${status}.`, [], undefined);
}

function parse<T>(shape: z.ZodType<T>, body: unknown, path: string): T {
  const parsed = shape.safeParse(body);
  if (!parsed.success)
    throw new PayPalUnavailableError(
      `PayPal's answer to ${path} is not in the documented shape: ${parsed.error.message}`,
      1,
      null,
    );
  return parsed.data;
}
