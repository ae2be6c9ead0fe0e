import { data } from "react-router";
import type { Route } from "./+types/export";
import { toCsv } from "../../lib/csv.server";
import { requireAdmin } from "../../lib/guards.server";
import { subscriberStates } from "../../../domain/vocabulary";

/** CSV downloads of orders, subscribers and messages (admin only). */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  await requireAdmin(request, context);
  const s = context.services;
  let csv: string;
  switch (params.file) {
    case "orders.csv":
      csv = toCsv(await s.orders.all(), [
        { header: "Order Number", value: (o) => o.orderNumber },
        { header: "Order ID", value: (o) => o._id },
        { header: "Order Date", value: (o) => o.orderDate },
        { header: "Customer Name", value: (o) => o.customerName },
        { header: "Customer Email", value: (o) => o.customerEmail },
        { header: "Address", value: (o) => o.customerAddress },
        { header: "Country", value: (o) => o.customerCountry },
        { header: "Package", value: (o) => o.packageName },
        { header: "Price (USD)", value: (o) => o.packagePrice.toFixed(2) },
        { header: "Validity (days)", value: (o) => o.packageValidity },
        { header: "Payment Status", value: (o) => o.paymentStatus },
        { header: "Order Status", value: (o) => o.orderStatus },
        { header: "Membership Valid Until", value: (o) => o.membershipValid ?? "" },
      ]);
      break;
    case "subscribers.csv":
      csv = toCsv(await s.newsletter.all(), [
        { header: "Email", value: (r) => r.subemail },
        { header: "State", value: (r) => subscriberStates.label(r.state) },
        { header: "Subscribed At", value: (r) => r.subscribedAt },
        { header: "Confirmed At", value: (r) => r.confirmedAt ?? "" },
        { header: "Unsubscribed At", value: (r) => r.unsubscribedAt ?? "" },
      ]);
      break;
    case "messages.csv":
      csv = toCsv(await s.inbox.allMessages(), [
        { header: "Received At", value: (m) => m.createdAt },
        { header: "Name", value: (m) => m.name },
        { header: "Email", value: (m) => m.email },
        { header: "Phone", value: (m) => m.number },
        { header: "Subject", value: (m) => m.subject },
        { header: "Message", value: (m) => m.message },
        { header: "Status", value: (m) => m.messageStatus },
      ]);
      break;
    default:
      throw data({ message: "Not found" }, { status: 404 });
  }
  const stamp = new Date().toISOString().slice(0, 10);
  return new Response(csv, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="${params.file!.replace(".csv", "")}-${stamp}.csv"`,
      "Cache-Control": "no-store",
    },
  });
}
