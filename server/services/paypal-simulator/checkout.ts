import { randomBytes, timingSafeEqual } from "node:crypto";
import { eq } from "drizzle-orm";
import { periodWords } from "#domain/subscription.ts";
import { paymentDue, termsOfFields } from "#domain/subscription-price.ts";
import { simulatorMessages, simulatorSubscriptions } from "#server/db/schema.ts";
import { AppError } from "#server/lib/errors.ts";
import { digest, newTxnId, ownPath, send, type SimulatorContext } from "./context";
import { paymentIpn, subscriptionIpn } from "./ipn";

/** What the simulator's checkout page shows for the posted form; refuses forms that are not ours. */
export async function describe(ctx: SimulatorContext, fields: Record<string, string>) {
  if (ctx.mode !== "simulator") throw new AppError(404, "The PayPal simulator is off (PAYPAL_MODE is not simulator).");
  const order = fields.custom ? await ctx.deps.orders.byId(fields.custom) : undefined;
  if (
    !order ||
    (fields.cmd !== "_xclick" && fields.cmd !== "_xclick-subscriptions") ||
    !ownPath(ctx, fields.notify_url) ||
    !ownPath(ctx, fields.return) ||
    !ownPath(ctx, fields.cancel_return)
  ) {
    throw new AppError(400, "This payment form is not one of this site's.");
  }
  const subscription = fields.cmd === "_xclick-subscriptions";
  // A subscription's amounts as the form asked (an introductory first payment, then each period's).
  const terms = subscription ? termsOfFields(fields) : null;
  if (subscription && !terms) throw new AppError(400, "This payment form is not one of this site's.");
  return {
    orderId: order.id,
    itemName: fields.item_name ?? order.packageName,
    /** What is paid now: the amount, or a subscription's first payment. */
    amount: (terms ? paymentDue(terms, 1).toFixed(2) : fields.amount) ?? "",
    /** A subscription's later payments, when they differ from the first (a first-period code), else null. */
    laterAmount: terms && terms.intro !== null ? terms.regular.toFixed(2) : null,
    terms,
    /** A subscription: PayPal's period in words, after "Billed every" ("30 days" for 30 D), else null. */
    period: subscription ? periodWords(`${fields.p3 ?? ""} ${fields.t3 ?? ""}`) : null,
    currency: fields.currency_code ?? "",
    business: fields.business ?? "",
    payable: order.paymentStatus === "UnPaid",
  };
}

/** Whether a request is one of this simulator's own notifications (its header holds this process's secret). */
export function sentIt({ mode, secret }: SimulatorContext, header: string | string[] | undefined): boolean {
  if (mode !== "simulator" || typeof header !== "string" || header.length !== secret.length) return false;
  return timingSafeEqual(Buffer.from(header), Buffer.from(secret));
}

/** 'Pay' (or 'Subscribe'): sends PayPal's notifications (real POSTs to notify_url), then answers where to go. */
export async function pay(ctx: SimulatorContext, fields: Record<string, string>): Promise<string> {
  const info = await describe(ctx, fields);
  if (info.terms) {
    const subscrId = `I-SIM${randomBytes(6).toString("hex").toUpperCase()}`;
    await ctx.deps.db.insert(simulatorSubscriptions).values({ subscrId, orderId: info.orderId, fields });
    await send(ctx, fields, subscriptionIpn(fields, info, info.terms, subscrId, "subscr_signup"));
    await send(ctx, fields, subscriptionIpn(fields, info, info.terms, subscrId, "subscr_payment", 1));
    return ownPath(ctx, fields.return)!;
  }
  const txnId = newTxnId();
  const ipn = paymentIpn(info, txnId);
  await send(ctx, fields, ipn);
  return ownPath(ctx, fields.return)!;
}

/** 'Cancel': back to the site's cancel address. */
export async function cancel(ctx: SimulatorContext, fields: Record<string, string>): Promise<string> {
  await describe(ctx, fields);
  return ownPath(ctx, fields.cancel_return)!;
}

/** The simulator's postback: VERIFIED only for a message it sent itself. */
export async function validate(ctx: SimulatorContext, body: string): Promise<"VERIFIED" | "INVALID"> {
  const prefix = "cmd=_notify-validate&";
  if (ctx.mode !== "simulator" || !body.startsWith(prefix)) return "INVALID";
  const [row] = await ctx.deps.db
    .select()
    .from(simulatorMessages)
    .where(eq(simulatorMessages.digest, digest(body.slice(prefix.length))));
  return row ? "VERIFIED" : "INVALID";
}
