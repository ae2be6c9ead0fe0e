import express, { Router, type Request, type RequestHandler, type Response } from "express";
import type { z } from "zod";
import {
  cancelBody,
  createOrderBody,
  invalidRequest,
  planBody,
  productBody,
  refundBody,
  subscriptionBody,
  verifyBody,
  webhookBody,
  type PayPalRestSimulator,
} from "../services/payments/paypal/simulator";
import type { Logger } from "../lib/logger";
import { BODY_LIMIT_BYTES } from "./body";

type Answer = { status: number; body: unknown };

type Handle = (run: (req: Request) => Promise<Answer>, opts?: { public?: boolean }) => RequestHandler;

const send = (res: Response, answer: Answer) => {
  res.setHeader("Cache-Control", "no-store");
  if (answer.status === 204 || answer.body === null) return void res.status(answer.status).end();
  res.status(answer.status).json(answer.body);
};
const requestId = (req: Request) => req.get("paypal-request-id") ?? undefined;
const param = (req: Request, name: string) => String(req.params[name] ?? "");

/** Notes the call, applies a fault set for it, checks the bearer token (unless public), then runs it. */
const handlerOf =
  (simulator: PayPalRestSimulator): Handle =>
  (run, opts = {}) =>
  (req, res, next) => {
    (async () => {
      const faulted = await simulator.intercept(req.method, req.path, req.get("paypal-request-id") ?? null);
      if (faulted) return send(res, faulted);
      if (!opts.public && !(await simulator.authorized(req.get("authorization"))))
        return send(res, {
          status: 401,
          body: { error: "invalid_token", error_description: "The token passed in was not found in the system" },
        });
      send(res, await run(req));
    })().catch(next);
  };
/** The body checked with its schema, or PayPal's 400 INVALID_REQUEST. */
const withBody =
  <S extends z.ZodType>(schema: S, run: (req: Request, body: z.infer<S>) => Promise<Answer>) =>
  async (req: Request): Promise<Answer> => {
    const parsed = schema.safeParse(req.body ?? {});
    return parsed.success ? run(req, parsed.data) : invalidRequest(parsed.error);
  };

/** The OAuth server, orders and captures (Orders v2, Payments v2). */
function checkoutRoutes(r: Router, handle: Handle, simulator: PayPalRestSimulator) {
  r.post(
    "/v1/oauth2/token",
    handle((req) => simulator.token(req.get("authorization"), (req.body ?? {}) as Record<string, unknown>), {
      public: true,
    }),
  );
  r.post(
    "/v2/checkout/orders",
    handle(withBody(createOrderBody, (req, body) => simulator.createOrder(body, requestId(req)))),
  );
  r.get(
    "/v2/checkout/orders/:id",
    handle((req) => simulator.getOrder(param(req, "id"))),
  );
  r.post(
    "/v2/checkout/orders/:id/capture",
    handle((req) => simulator.captureOrder(param(req, "id"), requestId(req))),
  );
  r.get(
    "/v2/payments/captures/:id",
    handle((req) => simulator.getCapture(param(req, "id"))),
  );
  r.post(
    "/v2/payments/captures/:id/refund",
    handle(withBody(refundBody, (req, body) => simulator.refundCapture(param(req, "id"), body, requestId(req)))),
  );
}

/** Products, plans and subscriptions (Catalog Products v1, Subscriptions v1). */
function billingRoutes(r: Router, handle: Handle, simulator: PayPalRestSimulator) {
  r.post(
    "/v1/catalogs/products",
    handle(withBody(productBody, (req, body) => simulator.createProduct(body, requestId(req)))),
  );
  r.get(
    "/v1/catalogs/products/:id",
    handle((req) => simulator.getProduct(param(req, "id"))),
  );
  r.post("/v1/billing/plans", handle(withBody(planBody, (req, body) => simulator.createPlan(body, requestId(req)))));
  r.get(
    "/v1/billing/plans/:id",
    handle((req) => simulator.getPlan(param(req, "id"))),
  );
  r.post(
    "/v1/billing/subscriptions",
    handle(withBody(subscriptionBody, (req, body) => simulator.createSubscription(body, requestId(req)))),
  );
  r.get(
    "/v1/billing/subscriptions/:id",
    handle((req) => simulator.getSubscription(param(req, "id"))),
  );
  r.post(
    "/v1/billing/subscriptions/:id/cancel",
    handle(
      withBody(cancelBody, (req, body) => simulator.cancelSubscription(param(req, "id"), body.reason, requestId(req))),
    ),
  );
}

/** Webhooks, their signatures' verification and the signing key (Webhooks v1). */
function webhookRoutes(r: Router, handle: Handle, simulator: PayPalRestSimulator) {
  r.get(
    "/v1/notifications/webhooks",
    handle(() => simulator.listWebhooks()),
  );
  r.post("/v1/notifications/webhooks", handle(withBody(webhookBody, (_req, body) => simulator.createWebhook(body))));
  r.post(
    "/v1/notifications/verify-webhook-signature",
    handle(withBody(verifyBody, (_req, body) => simulator.verify(body))),
  );
  r.get("/v1/notifications/certs/:id", (req, res, next) => {
    simulator.certificate(param(req, "id")).then((pem) => {
      if (!pem) return void res.status(404).type("text/plain").send("No such certificate.");
      res.type("application/x-pem-file").send(pem);
    }, next);
  });
}

/** Anything else under the prefix: PayPal's 404 shape; a malformed JSON body: PayPal's 400 MALFORMED_REQUEST_JSON. */
function fallbackRoutes(r: Router, logger: Logger) {
  r.use((_req, res) =>
    send(res, {
      status: 404,
      body: { name: "NOT_FOUND", message: "The specified resource does not exist.", details: [] },
    }),
  );
  r.use(((error, _req, res, _next) => {
    const status = (error as { status?: number }).status;
    if (status && status < 500)
      return send(res, {
        status: 400,
        body: {
          name: "INVALID_REQUEST",
          message: "Request is not well-formed, syntactically incorrect, or violates schema.",
          details: [{ issue: "MALFORMED_REQUEST_JSON", description: "The request JSON is not well formed." }],
        },
      });
    logger.error({ error }, "the PayPal simulator failed");
    send(res, {
      status: 500,
      body: { name: "INTERNAL_SERVER_ERROR", message: "An internal server error has occurred.", details: [] },
    });
  }) satisfies express.ErrorRequestHandler);
}

/**
 * The simulator's REST API (PAYPAL_MODE=simulator): PayPal's own paths, mounted under SIMULATOR_REST_PREFIX. A
 * machine's door, not a person's: every call but the token and the signing key needs a bearer token of the
 * simulator's OAuth server (401 invalid_token as PayPal answers); bodies are checked as PayPal checks them (400
 * INVALID_REQUEST with the fields). Off in live and sandbox modes (the prefix is then an unknown page).
 */
export function paypalSimulatorRestRoutes(simulator: PayPalRestSimulator, logger: Logger): Router {
  const r = Router({ caseSensitive: true });
  r.use(express.json({ limit: BODY_LIMIT_BYTES, type: "application/json" }));
  r.use(express.urlencoded({ limit: BODY_LIMIT_BYTES, extended: false }));
  const handle = handlerOf(simulator);
  checkoutRoutes(r, handle, simulator);
  billingRoutes(r, handle, simulator);
  webhookRoutes(r, handle, simulator);
  fallbackRoutes(r, logger);
  return r;
}
