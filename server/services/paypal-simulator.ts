import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import { desc, eq, inArray } from "drizzle-orm";
import type { Config } from "../config";
import type { Db } from "../db/client";
import { simulatorMessages, simulatorSubscriptions } from "../db/schema";
import { AppError, isId } from "../lib/errors";
import type { Logger } from "../lib/logger";
import type { OrdersService } from "./orders";
import { periodWords } from "#domain/subscription.ts";
import { paymentDue, termsOfFields, type SubscriptionTerms } from "#domain/subscription-price.ts";

export const SIMULATOR_PATH = "/paypal-simulator";
export const SIMULATOR_VERIFY_PATH = "/paypal-simulator/cgi-bin/webscr";

const digest = (raw: string) => createHash("sha256").update(raw).digest("hex");

/**
 * The header the simulator's own notifications carry, with a secret of this process: the listener's per-address limit
 * is for floods from outside, and the simulator (this same process, posting to itself) is no flood.
 */
export const SIMULATOR_HEADER = "x-atelier-simulator";

/**
 * The built-in stand-in for PayPal (PAYPAL_MODE=simulator) on a machine with no internet: its checkout page's Pay and
 * Cancel, the notification it sends to our IPN listener, and the verification postback that answers VERIFIED only
 * for what it sent itself. It only ever talks to this server (`selfUrl`), and only for this site's own forms.
 */
export function createPayPalSimulator(deps: {
  db: Db;
  config: Config;
  orders: Pick<OrdersService, "byId">;
  logger: Logger;
  /** How this server reaches itself (known once it listens). */
  selfUrl: () => string;
}) {
  const { db, config, orders: ordersService, logger } = deps;
  const mode = config.paypalMode;
  const secret = randomBytes(32).toString("hex");

  /** An address of ours (PUBLIC_URL's origin) turned into the same path on this server; anything else refused. */
  function ownPath(address: string | undefined): string | null {
    if (!address) return null;
    try {
      const url = new URL(address);
      return url.origin === new URL(config.publicUrl).origin ? url.pathname + url.search : null;
    } catch {
      return null;
    }
  }

  const newTxnId = () => randomBytes(9).toString("hex").toUpperCase().slice(0, 17);

  /** Posts a notification to the form's notify_url, having noted it as sent (its postback then says VERIFIED). */
  async function send(fields: Record<string, string>, ipn: string) {
    await db
      .insert(simulatorMessages)
      .values({ digest: digest(ipn) })
      .onConflictDoNothing();
    const res = await fetch(deps.selfUrl() + ownPath(fields.notify_url)!, {
      method: "POST",
      headers: {
        "content-type": "application/x-www-form-urlencoded",
        "user-agent": "PayPal IPN ( https://www.paypal.com/ipn )",
        [SIMULATOR_HEADER]: secret,
      },
      body: ipn,
      signal: AbortSignal.timeout(10_000),
    });
    if (!res.ok) logger.warn({ status: res.status }, "the simulated notification was not accepted");
  }

  /**
   * A subscription notification as PayPal words it (Website Payments Standard). PayPal takes what the form asked for
   * (domain/subscription-price.ts): payment `n` is a1 for the first when the form had an introductory period, else a3.
   */
  function subscriptionIpn(
    fields: Record<string, string>,
    info: { orderId: string; itemName: string; currency: string; business: string },
    terms: SubscriptionTerms,
    subscrId: string,
    txnType: string,
    n = 2,
  ): string {
    const amount = paymentDue(terms, n).toFixed(2);
    const common: Record<string, string> = {
      txn_type: txnType,
      subscr_id: subscrId,
      custom: info.orderId,
      invoice: info.orderId,
      business: info.business,
      receiver_email: info.business,
      item_name: info.itemName,
      item_number: "1",
      payer_id: "SIMULATEDPAYER",
      payer_email: "buyer@example.com",
      first_name: "Simulated",
      last_name: "Buyer",
      charset: "UTF-8",
      notify_version: "3.9",
      test_ipn: "1",
      verify_sign: randomBytes(24).toString("base64url"),
      ipn_track_id: randomBytes(6).toString("hex"),
    };
    if (txnType === "subscr_signup")
      return new URLSearchParams({
        ...common,
        subscr_date: new Date().toUTCString(),
        ...(terms.intro !== null
          ? {
              mc_amount1: terms.intro.toFixed(2),
              amount1: terms.intro.toFixed(2),
              period1: `${fields.p1 ?? ""} ${fields.t1 ?? ""}`,
            }
          : {}),
        mc_amount3: terms.regular.toFixed(2),
        amount3: terms.regular.toFixed(2),
        period3: `${fields.p3 ?? ""} ${fields.t3 ?? ""}`,
        recurring: "1",
        reattempt: "1",
        mc_currency: info.currency,
      }).toString();
    if (txnType === "subscr_payment")
      return new URLSearchParams({
        ...common,
        txn_id: newTxnId(),
        payment_date: new Date().toUTCString(),
        payment_status: "Completed",
        payment_type: "instant",
        mc_gross: amount,
        mc_currency: info.currency,
      }).toString();
    if (txnType === "subscr_failed")
      return new URLSearchParams({
        ...common,
        mc_gross: amount,
        mc_currency: info.currency,
        retry_at: new Date(Date.now() + 3 * 86_400_000).toUTCString(),
      }).toString();
    return new URLSearchParams({ ...common, subscr_date: new Date().toUTCString() }).toString();
  }

  return {
    /** What the simulator's checkout page shows for the posted form; refuses forms that are not ours. */
    async describe(fields: Record<string, string>) {
      if (mode !== "simulator") throw new AppError(404, "The PayPal simulator is off (PAYPAL_MODE is not simulator).");
      const order = fields.custom ? await ordersService.byId(fields.custom) : undefined;
      if (
        !order ||
        (fields.cmd !== "_xclick" && fields.cmd !== "_xclick-subscriptions") ||
        !ownPath(fields.notify_url) ||
        !ownPath(fields.return) ||
        !ownPath(fields.cancel_return)
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
    },

    /** Whether a request is one of this simulator's own notifications (its header holds this process's secret). */
    sentIt(header: string | string[] | undefined): boolean {
      if (mode !== "simulator" || typeof header !== "string" || header.length !== secret.length) return false;
      return timingSafeEqual(Buffer.from(header), Buffer.from(secret));
    },

    /** 'Pay' (or 'Subscribe'): sends PayPal's notifications (real POSTs to notify_url), then answers where to go. */
    async pay(fields: Record<string, string>): Promise<string> {
      const info = await this.describe(fields);
      if (info.terms) {
        const subscrId = `I-SIM${randomBytes(6).toString("hex").toUpperCase()}`;
        await db.insert(simulatorSubscriptions).values({ subscrId, orderId: info.orderId, fields });
        await send(fields, subscriptionIpn(fields, info, info.terms, subscrId, "subscr_signup"));
        await send(fields, subscriptionIpn(fields, info, info.terms, subscrId, "subscr_payment", 1));
        return ownPath(fields.return)!;
      }
      const txnId = newTxnId();
      const ipn = new URLSearchParams({
        mc_gross: info.amount,
        protection_eligibility: "Eligible",
        payer_id: "SIMULATEDPAYER",
        payment_date: new Date().toUTCString(),
        payment_status: "Completed",
        charset: "UTF-8",
        first_name: "Simulated",
        last_name: "Buyer",
        notify_version: "3.9",
        custom: info.orderId,
        invoice: info.orderId,
        payer_status: "verified",
        business: info.business,
        receiver_email: info.business,
        quantity: "1",
        verify_sign: randomBytes(24).toString("base64url"),
        payer_email: "buyer@example.com",
        txn_id: txnId,
        payment_type: "instant",
        txn_type: "web_accept",
        item_name: info.itemName,
        item_number: "1",
        mc_currency: info.currency,
        residence_country: "US",
        test_ipn: "1",
        ipn_track_id: randomBytes(6).toString("hex"),
      }).toString();
      await send(fields, ipn);
      return ownPath(fields.return)!;
    },

    /** The subscriptions it signed up for an order's customer (its page's controls), newest first. */
    async subscriptionsOf(orderIds: string[]) {
      const ids = orderIds.filter(isId);
      if (mode !== "simulator" || !ids.length) return [];
      // Only the customer's orders' rows, not the whole table filtered here.
      const rows = await db
        .select()
        .from(simulatorSubscriptions)
        .where(inArray(simulatorSubscriptions.orderId, ids))
        .orderBy(desc(simulatorSubscriptions.createdAt));
      return rows.map((r) => ({
        subscrId: r.subscrId,
        orderId: r.orderId,
        status: r.status,
        itemName: r.fields.item_name ?? "",
        amount: r.fields.a3 ?? "",
      }));
    },

    /**
     * What PayPal does to a subscription it holds later on: the next period's payment, a failed payment, the
     * customer's cancellation, the end of term. Sends the notification (signed by the simulator) and returns its txn_id
     * for a payment. After a cancellation or the end, PayPal sends nothing more: neither does the simulator.
     */
    async subscriptionEvent(
      subscrId: string,
      what: "payment" | "failed" | "cancel" | "end",
    ): Promise<{ sent: boolean; txnId?: string; raw?: string }> {
      if (mode !== "simulator") throw new AppError(404, "The PayPal simulator is off (PAYPAL_MODE is not simulator).");
      const [sub] = await db.select().from(simulatorSubscriptions).where(eq(simulatorSubscriptions.subscrId, subscrId));
      if (!sub) throw new AppError(404, "This subscription is not one the simulator made.");
      if (sub.status !== "active") return { sent: false };
      const info = await this.describe(sub.fields);
      const type = { payment: "subscr_payment", failed: "subscr_failed", cancel: "subscr_cancel", end: "subscr_eot" }[
        what
      ];
      if (!info.terms) throw new AppError(400, "This subscription's form is not one of this site's.");
      // Every payment after the one taken at sign-up is a later period's: a3, after an introductory a1.
      const ipn = subscriptionIpn(sub.fields, info, info.terms, subscrId, type);
      if (what === "cancel" || what === "end")
        await db
          .update(simulatorSubscriptions)
          .set({ status: what === "cancel" ? "cancelled" : "ended" })
          .where(eq(simulatorSubscriptions.subscrId, subscrId));
      await send(sub.fields, ipn);
      return { sent: true, txnId: new URLSearchParams(ipn).get("txn_id") ?? undefined, raw: ipn };
    },

    /** Sends again a notification it sent before (PayPal's retry): the same message, still VERIFIED. */
    async resend(fields: Record<string, string>, raw: string): Promise<void> {
      await send(fields, raw);
    },

    /** 'Cancel': back to the site's cancel address. */
    async cancel(fields: Record<string, string>): Promise<string> {
      await this.describe(fields);
      return ownPath(fields.cancel_return)!;
    },

    /** The simulator's postback: VERIFIED only for a message it sent itself. */
    async validate(body: string): Promise<"VERIFIED" | "INVALID"> {
      const prefix = "cmd=_notify-validate&";
      if (mode !== "simulator" || !body.startsWith(prefix)) return "INVALID";
      const [row] = await db
        .select()
        .from(simulatorMessages)
        .where(eq(simulatorMessages.digest, digest(body.slice(prefix.length))));
      return row ? "VERIFIED" : "INVALID";
    },
  };
}

export type PayPalSimulator = ReturnType<typeof createPayPalSimulator>;
