import type { Request } from "express";
import { HONEYPOT_FIELD } from "../../../domain/public-forms";
import type { Services } from "../../services";
import type { Visitor } from "../../services/inbox";
import { added, id, paged, perPage, updated, type ApiRoute } from "./route";

/** Who sent a public form: their address (rate limits) and whether the honeypot was filled in. */
const visitor = (req: Request): Visitor => ({
  ip: req.ip ?? "unknown",
  isBot: typeof req.body?.[HONEYPOT_FIELD] === "string" && req.body[HONEYPOT_FIELD].trim() !== "",
});

/** What visitors send (contact messages, newsletter signups) and the admin's reading of it. */
export function inboxRoutes({ inbox }: Services): ApiRoute[] {
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
      handler: async (req, res) => {
        const { id: insertedId, created } = await inbox.subscribe(req.body, visitor(req));
        res.status(created ? 201 : 200);
        return { acknowledged: true, insertedId };
      },
    },
    {
      method: "get",
      path: "/messages",
      access: "admin",
      what: "contact messages",
      handler: async (req, res) => {
        const status = req.query.status === "Read" ? "Read" : req.query.status === "UnRead" ? "UnRead" : undefined;
        if (!status) return inbox.allMessages();
        const { messages, page } = await inbox.messagesByStatus(status, req.query.page, perPage(req));
        return paged(res, messages, page);
      },
    },
    {
      method: "get",
      path: "/message/:id",
      access: "admin",
      what: "one message",
      handler: (req) => inbox.message(id(req)),
    },
    {
      method: "put",
      path: "/message/:id",
      access: "admin",
      what: "mark a message read",
      handler: async (req, _res, viewer) => updated((await inbox.markRead(id(req), req.body, viewer)).modified),
    },
    {
      method: "get",
      path: "/subscribers",
      access: "admin",
      what: "newsletter subscribers",
      handler: async (req, res) => {
        const { subscribers, page } = await inbox.subscribers(req.query.page, perPage(req, 100));
        return paged(res, subscribers, page);
      },
    },
  ];
}
