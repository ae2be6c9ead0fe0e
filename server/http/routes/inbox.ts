import type { Request } from "express";
import { HONEYPOT_FIELD } from "#domain/public-forms.ts";
import type { Services } from "#server/services/index.ts";
import type { Visitor } from "#server/services/inbox.ts";
import { subscriberStates } from "#domain/vocabulary.ts";
import { badRequest } from "#server/lib/errors.ts";
import { added, id, paged, perPage, updated, type ApiRoute } from "./route";

/** Who sent a public form: their address (rate limits) and whether the honeypot was filled in. */
const visitor = (req: Request): Visitor => ({
  ip: req.ip ?? "unknown",
  isBot: typeof req.body?.[HONEYPOT_FIELD] === "string" && req.body[HONEYPOT_FIELD].trim() !== "",
});

/** What visitors send (contact messages, newsletter signups) and the admin's reading of it. */
export function inboxRoutes({ inbox, newsletter }: Services): ApiRoute[] {
  return [...publicFormRoutes(inbox, newsletter), ...messageRoutes(inbox), ...subscriberRoutes(newsletter)];
}

/** The public forms: a contact message, a newsletter signup. */
function publicFormRoutes(inbox: Services["inbox"], newsletter: Services["newsletter"]): ApiRoute[] {
  return [
    {
      method: "post",
      path: "/add-message",
      access: "public",
      what: "contact message",
      handler: async (req, res) => added(res, (await inbox.sendMessage(req.body, visitor(req))).id),
    },
    {
      method: "post",
      path: "/add-subscriber",
      access: "public",
      what: "newsletter signup",
      // 202 and no id, whatever the address's state: the answer never tells whether it was already subscribed.
      handler: async (req, res) => {
        await newsletter.subscribe(req.body, visitor(req));
        res.status(202);
        return { acknowledged: true, insertedId: null };
      },
    },
  ];
}

/** The admin's reading of the contact messages. */
function messageRoutes(inbox: Services["inbox"]): ApiRoute[] {
  return [
    {
      method: "get",
      path: "/messages",
      access: "staff",
      area: "messages",
      what: "contact messages",
      handler: async (req, res) => {
        if (req.query.status === "Archived") {
          const { messages, page } = await inbox.archivedMessages(req.query.page, perPage(req));
          return paged(res, messages, page);
        }
        const status = req.query.status === "Read" ? "Read" : req.query.status === "UnRead" ? "UnRead" : undefined;
        if (!status) return inbox.allMessages();
        const { messages, page } = await inbox.messagesByStatus(status, req.query.page, perPage(req));
        return paged(res, messages, page);
      },
    },
    {
      method: "get",
      path: "/message/:id",
      access: "staff",
      area: "messages",
      what: "one message",
      sample: { ids: { id: "message" } },
      handler: (req) => inbox.message(id(req)),
    },
    {
      method: "put",
      path: "/message/:id",
      access: "staff",
      area: "messages",
      what: "mark a message read",
      sample: { ids: { id: "message" }, body: { messageStatus: "Read" } },
      handler: async (req, _res, viewer) => updated((await inbox.markRead(id(req), req.body, viewer)).modified),
    },
    {
      method: "put",
      path: "/message/:id/archive",
      access: "staff",
      area: "messages",
      what: "archive a message ({archived: true}) or bring it back to the inbox ({archived: false})",
      sample: { ids: { id: "message" }, body: { archived: false } },
      handler: async (req, _res, viewer) => updated((await inbox.setArchived(id(req), req.body, viewer)).modified),
    },
  ];
}

/** The newsletter's subscribers, by state. */
function subscriberRoutes(newsletter: Services["newsletter"]): ApiRoute[] {
  return [
    {
      method: "get",
      path: "/subscribers",
      access: "staff",
      area: "subscribers",
      what: "newsletter subscribers",
      // Confirmed addresses (the subscribers) unless ?state= asks for pending or unsubscribed ones.
      handler: async (req, res) => {
        const state = req.query.state ?? "confirmed";
        if (!subscriberStates.includes(state)) {
          throw badRequest([{ field: "state", message: `state must be ${subscriberStates.sentence()}` }]);
        }
        const { subscribers, page } = await newsletter.list(state, req.query.page, perPage(req, 100));
        return paged(res, subscribers, page);
      },
    },
  ];
}
