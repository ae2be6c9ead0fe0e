import type { Request } from "express";
import { z } from "zod";
import type { Services } from "#server/services/index.ts";
import { webhookPath } from "#server/services/payments/index.ts";
import { AppError, notFound } from "#server/lib/errors.ts";
import { IPN_LIMIT } from "#server/services/payments/paypal/ipn.ts";
import { SIMULATOR_HEADER } from "#server/services/paypal-simulator.ts";
import { id, type ApiRoute } from "./route";

/**
 * Webhook deliveries accepted per sending address: PayPal sends a few per payment from a handful of addresses, so a
 * busy shop stays far below; a flood of forgeries (each costs a verification call) stops here.
 */
export const WEBHOOK_LIMIT = { name: "webhook:ip", limit: 600, windowMs: 60_000 };

declare module "express-serve-static-core" {
  interface Request {
    /** A webhook's body exactly as it came (its signature covers these bytes), kept by the API's JSON parser. */
    rawBody?: string;
  }
}

/** Keeps the exact body of a webhook delivery for its signature check (only there: every other call is parsed only). */
export const keepWebhookBody = (req: Request, _res: unknown, buf: Buffer) => {
  if (/^\/api\/payments\/[^/]+\/webhook$/.test(req.originalUrl.split("?")[0] ?? "")) req.rawBody = buf.toString("utf8");
};

const params = z.object({ provider: z.string().regex(/^[a-z]{1,20}$/) });

/**
 * A payment provider's webhook (issue 34 part 1): public (the provider signs it; the controller verifies), answered
 * by the provider's controller: 400 unsigned or malformed, 401 forged, 200 handled, 5xx when we failed.
 */
export function paymentRoutes({ payments, paypal, rateLimiter }: Services): ApiRoute[] {
  const refunds = () => {
    if (!payments.refunds)
      throw new AppError(503, "PayPal is not configured on this site, so nothing can be refunded.");
    return payments.refunds;
  };
  return [
    {
      method: "get",
      path: "/order-refunds/:id",
      access: "staff",
      area: "orders",
      what: "an order's refunds: how it was paid, the refunds so far, what is left, PayPal's last day (decision 067)",
      sample: { ids: { id: "order" } },
      handler: (req) => refunds().panel(id(req)),
    },
    {
      // Money leaving the business: the payments area (the Admin role), not every role that sees orders (decision 067).
      method: "post",
      path: "/order-refund/:id",
      access: "staff",
      area: "payments",
      what: "refund all (blank amount) or part of an order's PayPal Checkout payment: {amount, reason, note, seen}",
      sample: { ids: { id: "paid order" }, body: { amount: "1.00", reason: "Admin API check" } },
      handler: async (req, res, viewer) => {
        const made = await refunds().refund(id(req), req.body, { id: viewer.id, email: viewer.email });
        res.status(201);
        return made;
      },
    },
    {
      // PayPal Payments Standard's notifications (spec route), for what was started on it (decision 069): limited per
      // sending address (not the simulator's own), stored as they came and answered 200 only once stored (a failure to
      // store answers 5xx, so PayPal sends it again), then verified and applied after the answer.
      method: "post",
      path: "/paypal/ipn",
      access: "public",
      what: "PayPal's IPN message (Payments Standard)",
      body: "text",
      handler: async (req, res) => {
        res.setHeader("Cache-Control", "no-store");
        // The simulator's own notifications (this process posting to itself) are not a flood from outside.
        if (!paypal.simulator.sentIt(req.headers[SIMULATOR_HEADER])) {
          const { allowed, retryAfterSeconds } = await rateLimiter.hit(IPN_LIMIT, req.ip ?? "unknown");
          if (!allowed) {
            res.setHeader("Retry-After", String(retryAfterSeconds));
            return void res.status(429).type("text/plain").send("Too many notifications from this address.");
          }
        }
        const raw = req.rawBody ?? "";
        if (!raw) return void res.status(400).type("text/plain").send("An empty notification.");
        const stored = await payments.ipn.receive(raw);
        res.status(200).end();
        if (stored) payments.ipn.processAfterAnswer(stored, raw);
      },
    },
    {
      method: "post",
      path: webhookPath(":provider"),
      access: "public",
      what: "a payment provider's webhook",
      handler: async (req, res) => {
        const parsed = params.safeParse(req.params);
        const controller = parsed.success ? payments.controllers[parsed.data.provider] : undefined;
        if (!controller) throw notFound("No such payment provider");
        const { allowed, retryAfterSeconds } = await rateLimiter.hit(WEBHOOK_LIMIT, req.ip ?? "unknown");
        if (!allowed) {
          res.setHeader("Retry-After", String(retryAfterSeconds));
          return void res.status(429).json({ received: false, error: "Too many notifications from this address." });
        }
        const answer = await controller.receive({
          headers: req.headers as Record<string, string | undefined>,
          rawBody: req.rawBody ?? "",
        });
        res.status(answer.status).json(answer.body);
      },
    },
  ];
}
