import type { Services } from "#server/services/index.ts";
import { AppError } from "#server/lib/errors.ts";
import { added, id, paged, perPage, updated, type ApiRoute } from "./route";

type CustomersService = Services["customers"];

/** Customers (issue 26, part 2): the list and the record, and the record's actions; Admins only (area customers). */
export function customerRoutes({ customers, payments }: Services): ApiRoute[] {
  return [...customerRecordRoutes(customers), ...customerAccountRoutes(customers, payments)];
}

/** The list, the record, and what gives a membership (a gift, a sale by hand). */
function customerRecordRoutes(customers: CustomersService): ApiRoute[] {
  return [
    {
      method: "get",
      path: "/customers",
      access: "staff",
      area: "customers",
      what: "customers (not staff), by ?q= (name, email, order number) ?state= ?sort= and ?page= ?limit=",
      handler: async (req, res) => {
        const filters = customers.parseFilters(req.query);
        const { customers: rows, page } = await customers.list(filters, {
          page: req.query.page,
          perPage: perPage(req),
        });
        return paged(res, rows, page);
      },
    },
    {
      method: "get",
      path: "/customers/:id",
      access: "staff",
      area: "customers",
      what: "one customer's record: membership timeline, orders, mails, activity, note",
      sample: { ids: { id: "customer" } },
      handler: (req) => customers.get(id(req)),
    },
    {
      method: "post",
      path: "/customers/:id/membership",
      access: "staff",
      area: "customers",
      what: "give or extend a membership (days 1-3650, reason; an Idempotency-Key header gives one order per key)",
      sample: { ids: { id: "customer" }, body: { days: 10, reason: "A gift" } },
      handler: async (req, res, viewer) => {
        const r = await customers.grant(id(req), req.body, viewer, req.get("idempotency-key"));
        return {
          ...added(res, r.orderId),
          created: r.created,
          orderNumber: r.orderNumber,
          membershipEnds: r.membershipEnds,
        };
      },
    },
    {
      method: "post",
      path: "/customers/:id/orders",
      access: "staff",
      // Making an order and recording its payment: what the order screen's payment status is guarded by.
      area: "orders",
      what: "a sale made by hand (issue 35 part 7): packageId, price and reason (another price), customerName, customerAddress, customerCountry, customerVatNumber (each left out: the latest order's), settle (bank-transfer, cash, paypal: paid and invoiced, with reference; pay-link: the link mailed), activate; an Idempotency-Key header gives one order per key",
      sample: {
        ids: { id: "customer", packageId: "pricing" },
        body: { customerName: "R", customerAddress: "A", customerCountry: "UK", settle: "cash" },
      },
      handler: async (req, res, viewer) => {
        const r = await customers.sell(id(req), req.body, viewer, req.get("idempotency-key"));
        return { ...added(res, r.orderId), ...r };
      },
    },
  ];
}

/** A customer's payments and mails, their sessions, the note, and cancelling a subscription. */
function customerAccountRoutes(customers: CustomersService, payments: Services["payments"]): ApiRoute[] {
  return [
    {
      method: "post",
      path: "/customers/:id/bank-transfer",
      access: "staff",
      area: "customers",
      what: "record a payment received outside PayPal on an unpaid order (orderId, reference, activate)",
      sample: { ids: { id: "customer", orderId: "customer's unpaid order" }, body: { reference: "BT-1" } },
      handler: async (req, _res, viewer) => {
        const r = await customers.bankTransfer(id(req), req.body, viewer);
        return updated(r.modified, { orderNumber: r.orderNumber, membershipValid: r.membershipValid });
      },
    },
    {
      method: "post",
      path: "/customers/:id/resend-mail",
      access: "staff",
      area: "customers",
      what: "send an order's confirmation (unpaid) or payment receipt (paid) again (orderId)",
      sample: { ids: { id: "customer", orderId: "customer's unpaid order" } },
      handler: async (req, _res, viewer) => customers.resend(id(req), req.body, viewer),
    },
    {
      method: "post",
      path: "/customers/:id/sign-out",
      access: "staff",
      area: "customers",
      what: "sign a customer out on every device (their sessions deleted)",
      sample: { ids: { id: "customer" } },
      handler: async (req, _res, viewer) => customers.signOutEverywhere(id(req), viewer),
    },
    {
      method: "put",
      path: "/customers/:id/note",
      access: "staff",
      area: "customers",
      what: "the private note about a customer (note; empty removes it)",
      sample: { ids: { id: "customer" }, body: { note: "Called on Monday" } },
      handler: async (req, _res, viewer) => updated((await customers.setNote(id(req), req.body, viewer)).modified),
    },
    {
      method: "post",
      path: "/subscriptions/:id/cancel",
      access: "user",
      area: "customers",
      what: "cancel a PayPal subscription (the customer: their own, on the Subscriptions API; staff: any): at PayPal first for a Subscriptions API one, then no more renewals applied here; 404 unknown or another's, modified false when not active, 503 PayPal not answering (nothing changed)",
      handler: async (req, _res, viewer) => {
        if (!payments.subscribe) throw new AppError(503, "Payments are not set up on this site yet.");
        const { modified } = await payments.subscribe.cancel(viewer, id(req));
        return { ...updated(modified), modified };
      },
    },
  ];
}
