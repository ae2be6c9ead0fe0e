import type { Request } from "express";
import type { Services } from "#server/services/index.ts";
import { postmarkEvent, postmarkEventSchema, sesEvent, snsEnvelopeSchema } from "#server/services/suppressions.ts";
import { AppError, badRequest } from "#server/lib/errors.ts";
import { added, id, paged, perPage, updated, type ApiRoute } from "./route";

/** The secret a provider presents: the password of HTTP basic auth, as its webhook URL `https://x:secret@…` sends it. */
function basicSecret(req: Request): string {
  const header = req.headers.authorization ?? "";
  if (!header.startsWith("Basic ")) return "";
  const decoded = Buffer.from(header.slice(6), "base64").toString("utf8");
  const colon = decoded.indexOf(":");
  return colon < 0 ? "" : decoded.slice(colon + 1);
}

/**
 * Newsletters and the suppression list (issue 36, parts 4 and 5), in the "subscribers" area: Admin only today, like
 * the subscribers they are sent to. The mail providers' webhooks are public calls that present MAIL_WEBHOOK_SECRET.
 */
export function newsletterRoutes({ newsletters, suppressions }: Services): ApiRoute[] {
  return [...draftRoutes(newsletters), ...sendingRoutes(newsletters), ...suppressionRoutes(suppressions)];
}

/** A draft made, counted, read, changed and deleted. */
function draftRoutes(newsletters: Services["newsletters"]): ApiRoute[] {
  return [
    {
      method: "get",
      path: "/newsletters",
      access: "staff",
      area: "subscribers",
      what: "newsletters, newest first",
      handler: async (req, res) => {
        const { newsletters: rows, page } = await newsletters.list(req.query.page, perPage(req));
        return paged(res, rows, page);
      },
    },
    {
      method: "post",
      path: "/newsletters",
      access: "staff",
      area: "subscribers",
      what: "a newsletter draft",
      sample: { body: { subject: "News from the studio", bodyText: "Hello.", audience: ["subscribers"] } },
      handler: async (req, res, viewer) => added(res, await newsletters.create(req.body, viewer)),
    },
    {
      method: "post",
      path: "/newsletters/audience",
      access: "staff",
      area: "subscribers",
      what: "how many distinct addresses an audience reaches",
      sample: { body: { audience: ["subscribers"] } },
      handler: (req) => newsletters.count(req.body),
    },
    {
      method: "get",
      path: "/newsletters/:id",
      access: "staff",
      area: "subscribers",
      what: "one newsletter and its recipients' counts",
      sample: { ids: { id: "newsletter" } },
      handler: (req) => newsletters.get(id(req)),
    },
    {
      method: "put",
      path: "/newsletters/:id",
      access: "staff",
      area: "subscribers",
      what: "change a newsletter draft",
      sample: {
        ids: { id: "newsletter" },
        body: { subject: "News from the studio", bodyText: "Hello again.", audience: ["subscribers"] },
      },
      handler: async (req, _res, viewer) => updated((await newsletters.update(id(req), req.body, viewer)).modified),
    },
    {
      method: "delete",
      path: "/newsletters/:id",
      access: "staff",
      area: "subscribers",
      what: "delete a newsletter draft",
      sample: { ids: { id: "newsletter" } },
      handler: async (req, _res, viewer) => {
        await newsletters.remove(id(req), viewer);
        return { acknowledged: true, deletedCount: 1 };
      },
    },
  ];
}

/** A test to oneself, the send (now or at a time), and sending again to those it failed. */
function sendingRoutes(newsletters: Services["newsletters"]): ApiRoute[] {
  return [
    {
      method: "post",
      path: "/newsletters/:id/test",
      access: "staff",
      area: "subscribers",
      what: "send a test of a newsletter to oneself",
      sample: { ids: { id: "newsletter" } },
      handler: (req, _res, viewer) => newsletters.sendTest(id(req), viewer),
    },
    {
      method: "post",
      path: "/newsletters/:id/send",
      access: "staff",
      area: "subscribers",
      what: "send a newsletter now or at a time ({at})",
      sample: { ids: { id: "newsletter" }, body: { at: null } },
      handler: async (req, res, viewer) => {
        res.status(202);
        return newsletters.send(id(req), req.body, viewer);
      },
    },
    {
      method: "post",
      path: "/newsletters/:id/unschedule",
      access: "staff",
      area: "subscribers",
      what: "a scheduled newsletter back to a draft",
      sample: { ids: { id: "scheduled newsletter" } },
      handler: async (req, _res, viewer) => {
        await newsletters.unschedule(id(req), viewer);
        return updated(true);
      },
    },
    {
      method: "post",
      path: "/newsletters/:id/retry",
      access: "staff",
      area: "subscribers",
      what: "send a partly sent newsletter again to those it failed",
      sample: { ids: { id: "newsletter" } },
      handler: async (req, res, viewer) => {
        res.status(202);
        return newsletters.retryFailed(id(req), viewer);
      },
    },
  ];
}

/** The addresses no mail goes to. */
function suppressionRoutes(suppressions: Services["suppressions"]): ApiRoute[] {
  return [
    {
      method: "get",
      path: "/suppressions",
      access: "staff",
      area: "subscribers",
      what: "the suppression list, newest first",
      handler: async (req, res) => {
        const { suppressions: rows, page } = await suppressions.list(req.query.page, perPage(req, 50));
        return paged(res, rows, page);
      },
    },
    {
      method: "post",
      path: "/suppressions",
      access: "staff",
      area: "subscribers",
      what: "add an address to the suppression list",
      sample: { body: { address: "gone@example.org" } },
      handler: async (req, res, viewer) => {
        const { added: isNew } = await suppressions.add(req.body, viewer);
        res.status(isNew ? 201 : 200);
        return { acknowledged: true, added: isNew };
      },
    },
    {
      method: "delete",
      path: "/suppressions/:address",
      access: "staff",
      area: "subscribers",
      what: "take an address off the suppression list",
      sample: { ids: { address: "suppressed address" } },
      handler: async (req, _res, viewer) => {
        await suppressions.remove(String(req.params.address), viewer);
        return { acknowledged: true, deletedCount: 1 };
      },
    },
  ];
}

/**
 * The mail providers' bounce and complaint webhooks: refused (401) unless they present MAIL_WEBHOOK_SECRET by basic
 * auth (compared in constant time); unset, every call is refused. Bodies bounded (the API's limit), parsed, and
 * idempotent: a listed address stays listed once.
 */
export function mailEventRoutes({ suppressions }: Services): ApiRoute[] {
  const check = (req: Request) => {
    if (!suppressions.webhookAllows(basicSecret(req))) throw new AppError(401, "This webhook needs its secret.");
  };
  return [
    {
      method: "post",
      path: "/mail-events/postmark",
      access: "public",
      what: "Postmark's bounce and spam-complaint webhook",
      handler: async (req) => {
        check(req);
        const parsed = postmarkEventSchema.safeParse(req.body);
        if (!parsed.success) throw badRequest([{ field: "body", message: "Not a Postmark bounce or complaint." }]);
        return suppressions.record(postmarkEvent(parsed.data), "postmark");
      },
    },
    {
      method: "post",
      path: "/mail-events/ses",
      access: "public",
      body: "text",
      what: "Amazon SES's bounce and complaint notifications through SNS",
      handler: async (req) => {
        check(req);
        let json: unknown;
        try {
          json = JSON.parse(req.rawBody ?? "");
        } catch {
          throw badRequest([{ field: "body", message: "The request body is not valid JSON." }]);
        }
        const envelope = snsEnvelopeSchema.safeParse(json);
        if (!envelope.success) throw badRequest([{ field: "body", message: "Not an SNS message." }]);
        // The subscription is confirmed by opening its SubscribeURL once (docs/operations/mail.md, Newsletters): never fetched here.
        if (envelope.data.Type === "SubscriptionConfirmation")
          return { confirmed: false, message: "Confirm this subscription in the SNS console." };
        if (envelope.data.Type !== "Notification") return { suppressed: 0 };
        let message: unknown;
        try {
          message = JSON.parse(envelope.data.Message ?? "");
        } catch {
          throw badRequest([{ field: "Message", message: "The notification's Message is not valid JSON." }]);
        }
        return suppressions.record(sesEvent(message), "ses");
      },
    },
  ];
}
