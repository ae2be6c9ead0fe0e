import type { Services } from "#server/services/index.ts";
import { added, id, paged, perPage, updated, type ApiRoute } from "./route";

/**
 * Outgoing webhooks (issue 37 part 2, docs/decisions/078), for the Admin (area "settings": what the whole site sends
 * elsewhere): endpoints, their deliveries, sending again, a test event, the signing secret.
 */
export function webhookRoutes({ webhooks }: Services): ApiRoute[] {
  return [...endpointRoutes(webhooks), ...deliveryRoutes(webhooks)];
}

/** The endpoints: listed, added, read, changed, deleted, paused and resumed. */
function endpointRoutes(webhooks: Services["webhooks"]): ApiRoute[] {
  return [
    {
      method: "get",
      path: "/webhooks",
      access: "staff",
      area: "settings",
      what: "webhook endpoints with their state and failures",
      handler: () => webhooks.list(),
    },
    {
      method: "post",
      path: "/webhooks",
      access: "staff",
      area: "settings",
      what: "add a webhook endpoint ({url, description, events}); the answer holds its signing secret",
      sample: { body: { url: "http://127.0.0.1:9/hook", description: "Accounts", events: ["order.paid"] } },
      handler: async (req, res, viewer) => {
        const { id: insertedId, secret } = await webhooks.add(req.body, viewer);
        return { ...added(res, insertedId), secret };
      },
    },
    {
      method: "get",
      path: "/webhooks/:id",
      access: "staff",
      area: "settings",
      what: "one webhook endpoint, with its signing secret",
      sample: { ids: { id: "webhook endpoint" } },
      handler: (req) => webhooks.get(id(req)),
    },
    {
      method: "put",
      path: "/webhooks/:id",
      access: "staff",
      area: "settings",
      what: "change a webhook endpoint's address, description or events",
      sample: {
        ids: { id: "webhook endpoint" },
        body: { url: "http://127.0.0.1:9/hook", description: "Accounts", events: ["order.paid"] },
      },
      handler: async (req, _res, viewer) => updated((await webhooks.update(id(req), req.body, viewer)).modified),
    },
    {
      method: "delete",
      path: "/webhooks/:id",
      access: "staff",
      area: "settings",
      what: "delete a webhook endpoint and its deliveries",
      sample: { ids: { id: "webhook endpoint" } },
      handler: async (req, _res, viewer) => {
        await webhooks.remove(id(req), viewer);
        return { acknowledged: true, deletedCount: 1 };
      },
    },
    {
      method: "put",
      path: "/webhooks/:id/state",
      access: "staff",
      area: "settings",
      what: "pause ({state: paused}) or resume ({state: active}) a webhook endpoint",
      sample: { ids: { id: "webhook endpoint" }, body: { state: "paused" } },
      handler: async (req, _res, viewer) => updated((await webhooks.setState(id(req), req.body, viewer)).modified),
    },
  ];
}

/** An endpoint's signing secret, its test event and its deliveries. */
function deliveryRoutes(webhooks: Services["webhooks"]): ApiRoute[] {
  return [
    {
      method: "post",
      path: "/webhooks/:id/secret",
      access: "staff",
      area: "settings",
      what: "a new signing secret for a webhook endpoint (the old one stops at once)",
      sample: { ids: { id: "webhook endpoint" } },
      handler: async (req, _res, viewer) => ({ acknowledged: true, ...(await webhooks.rotateSecret(id(req), viewer)) }),
    },
    {
      method: "post",
      path: "/webhooks/:id/test",
      access: "staff",
      area: "settings",
      what: "send a webhook.test event to an endpoint",
      sample: { ids: { id: "webhook endpoint" } },
      handler: async (req, res, viewer) => {
        const { deliveryId } = await webhooks.sendTest(id(req), viewer);
        return added(res, deliveryId);
      },
    },
    {
      method: "get",
      path: "/webhooks/:id/deliveries",
      access: "staff",
      area: "settings",
      what: "an endpoint's deliveries, newest first (?page=, ?limit=, ?state=)",
      sample: { ids: { id: "webhook endpoint" } },
      handler: async (req, res) => {
        const { deliveries, page } = await webhooks.deliveries(id(req), {
          page: req.query.page,
          perPage: perPage(req, 50),
          state: req.query.state,
        });
        return paged(res, deliveries, page);
      },
    },
    {
      method: "post",
      path: "/webhooks/:id/deliveries/:deliveryId/resend",
      access: "staff",
      area: "settings",
      what: "send a delivery again (same message id)",
      sample: { ids: { id: "webhook endpoint", deliveryId: "webhook delivery" } },
      handler: async (req, _res, viewer) =>
        updated((await webhooks.resend(id(req), String(req.params.deliveryId), viewer)).modified),
    },
  ];
}
