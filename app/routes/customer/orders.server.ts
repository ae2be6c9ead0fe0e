import type { AppLoadContext } from "react-router";
import { rowAction, type RowAction } from "#domain/membership.ts";
import type { OrderRecord } from "#server/services/orders/index.ts";
import type { Viewer } from "#server/services/accounts.ts";

/** A customer's orders page with each row's action decided on the server (one clock, one time zone). */
export async function customerOrders(context: AppLoadContext, viewer: Viewer, request: Request, perPage: number) {
  const page = new URL(request.url).searchParams.get("page");
  const { orders, page: info } = await context.services.orders.list(viewer, { page, perPage, mine: true });
  const now = context.services.now();
  const rows: (OrderRecord & { action: RowAction })[] = orders.map((o) => ({
    ...o,
    action: rowAction(
      {
        id: o._id,
        paymentStatus: o.paymentStatus,
        orderStatus: o.orderStatus,
        membershipValid: o.membershipValid ? new Date(o.membershipValid) : null,
      },
      now,
      context.config.timeZone,
    ),
  }));
  return { rows, page: info };
}
