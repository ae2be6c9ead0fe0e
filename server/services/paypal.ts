import { and, eq, inArray, sql } from "drizzle-orm";
import type { Config } from "../config";
import type { Db } from "../db/client";
import { paymentEvents } from "../db/schema";
import { isAppError, isId, isUniqueViolation } from "../lib/errors";
import type { Logger } from "../lib/logger";
import { PAYPAL_ACTOR, type OrdersService } from "./orders";
import type { PaymentAccountsService } from "./payment-accounts";
import { createPayPalSimulator, SIMULATOR_PATH, SIMULATOR_VERIFY_PATH } from "./paypal-simulator";
import type { SubscribedOrder, SubscriptionsService } from "./subscriptions";
import {
  decideSubscriptionPayment,
  paypalPeriod,
  periodDays,
  subscriptionNotice,
  subscrIdOf,
} from "../../domain/subscription";
import { paymentDue, subscriptionFields, subscriptionTerms, type PricedOrder } from "../../domain/subscription-price";

// server/http/app.ts mounts the simulator's postback at this path.
export { SIMULATOR_VERIFY_PATH } from "./paypal-simulator";

export type PayPalMode = Config["paypalMode"];

const ENDPOINTS: Record<Exclude<PayPalMode, "simulator">, { checkout: string; verify: string }> = {
  live: { checkout: "https://www.paypal.com/cgi-bin/webscr", verify: "https://ipnpb.paypal.com/cgi-bin/webscr" },
  sandbox: {
    checkout: "https://www.sandbox.paypal.com/cgi-bin/webscr",
    verify: "https://ipnpb.sandbox.paypal.com/cgi-bin/webscr",
  },
};

/** What became of one notification (stored with it). */
export type IpnOutcome =
  "applied" | "pending" | "refunded" | "invalid" | "rejected" | "duplicate" | "ignored" | "unverified";
/** A notification stored but not yet processed (received just now, or when the app stopped half-way). */
export const IPN_RECEIVED = "received";
/** Notifications accepted per sending address: PayPal sends a few per payment; a flood of forgeries stops here. */
export const IPN_LIMIT = { name: "ipn:ip", limit: 60, windowMs: 60_000 };
/** Outcomes that are looked at again: stored before a crash, or not verifiable when they came. */
const TO_PROCESS = [IPN_RECEIVED, "unverified"];

// What PostgreSQL cannot store as text: a NUL, or an unpaired UTF-16 surrogate.
const UNSTORABLE = /\0|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const UNSTORABLE_ALL = new RegExp(UNSTORABLE.source, "g");

export interface CheckoutForm {
  action: string;
  fields: Record<string, string>;
}

const cents = (v: string | number) => Math.round(Number(v) * 100);

/**
 * PayPal Website Payments Standard: the checkout form and the IPN listener's verification and checks. The built-in
 * simulator (paypal-simulator.ts) stands in for PayPal's checkout page and postback on a machine with no internet.
 */
export function createPayPalService(deps: {
  db: Db;
  config: Config;
  orders: OrdersService;
  accounts: PaymentAccountsService;
  subscriptions: SubscriptionsService;
  logger: Logger;
}) {
  const { db, config, orders: ordersService, accounts, subscriptions, logger } = deps;
  const mode = config.paypalMode;
  /** How this server reaches itself (set once it listens): the simulator's postback and notifications go here. */
  let selfUrl = `http://127.0.0.1:${config.port}`;

  const verifyUrl = () => (mode === "simulator" ? selfUrl + SIMULATOR_VERIFY_PATH : ENDPOINTS[mode].verify);

  async function record(
    eventId: string,
    params: URLSearchParams,
    outcome: IpnOutcome,
    reason: string,
    orderId: string | null,
  ) {
    await db
      .update(paymentEvents)
      .set({
        txnId: params.get("txn_id"),
        paymentStatus: params.get("payment_status"),
        orderId: orderId && isId(orderId) ? orderId : null,
        outcome,
        reason,
      })
      .where(eq(paymentEvents.id, eventId));
    const fields = { reason, orderId, txnId: params.get("txn_id"), status: params.get("payment_status") };
    if (outcome === "applied" || outcome === "pending" || outcome === "refunded")
      logger.info(fields, `paypal notification ${outcome}`);
    else logger.warn(fields, `paypal notification ${outcome}`);
  }

  /**
   * Stores a notification as it came, before anything answers PayPal: once this returns, a crash loses nothing
   * (processPending picks it up again). Text PostgreSQL cannot hold (a NUL) is no PayPal message: it is recorded,
   * escaped, as rejected and not processed (null).
   */
  async function receive(raw: string): Promise<string | null> {
    let decoded: string[];
    try {
      decoded = [...new URLSearchParams(raw)].flat();
    } catch {
      decoded = [];
    }
    if (UNSTORABLE.test(raw) || decoded.some((v) => UNSTORABLE.test(v))) {
      await db.insert(paymentEvents).values({
        raw: raw.replace(UNSTORABLE_ALL, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`),
        outcome: "rejected",
        reason: "the notification holds a NUL character or an unpaired surrogate: not one of PayPal's",
      });
      logger.warn("paypal notification rejected: unstorable characters");
      return null;
    }
    const [row] = await db
      .insert(paymentEvents)
      .values({ raw, outcome: IPN_RECEIVED, reason: "stored; not processed yet" })
      .returning({ id: paymentEvents.id });
    return row!.id;
  }

  /** Posts the message back to PayPal (or the simulator) and requires VERIFIED. */
  async function verify(raw: string): Promise<"VERIFIED" | "INVALID" | Error> {
    try {
      const res = await fetch(verifyUrl(), {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded", "user-agent": "Atelier-IPN-Verifier" },
        body: `cmd=_notify-validate&${raw}`,
        signal: AbortSignal.timeout(30_000),
      });
      const text = (await res.text()).trim();
      if (text === "VERIFIED") return "VERIFIED";
      if (text === "INVALID") return "INVALID";
      return new Error(`unexpected verification answer (${res.status}): ${text.slice(0, 80)}`);
    } catch (error) {
      return error instanceof Error ? error : new Error(String(error));
    }
  }

  /** Whether a transaction id already paid an order (an applied notification, or an order holding it). */
  async function txnApplied(txnId: string): Promise<boolean> {
    const seen = await db
      .select({ id: paymentEvents.id })
      .from(paymentEvents)
      .where(and(eq(paymentEvents.txnId, txnId), eq(paymentEvents.outcome, "applied")))
      .limit(1);
    return seen.length > 0 || Boolean(await ordersService.byTxnId(txnId));
  }

  /** Whether a sign-up of `subscrId` for this order was refused (its terms were not the order's). */
  async function signupRefused(orderId: string, subscrId: string): Promise<boolean> {
    const refused = await db
      .select({ raw: paymentEvents.raw })
      .from(paymentEvents)
      .where(
        and(
          eq(paymentEvents.orderId, orderId),
          eq(paymentEvents.outcome, "rejected"),
          sql`${paymentEvents.raw} like '%txn_type=subscr_signup%'`,
        ),
      );
    return refused.some((r) => subscrIdOf(new URLSearchParams(r.raw)) === subscrId);
  }

  /**
   * A verified subscription notice about `order` (our receiver already checked): money checked as for a payment, then
   * the subscription's rule (domain/subscription.ts). A notice for another order's subscription changes nothing.
   */
  async function processSubscription(
    eventId: string,
    params: URLSearchParams,
    notice: NonNullable<ReturnType<typeof subscriptionNotice>>,
    order: SubscribedOrder & PricedOrder & { packageValidity: number; paymentStatus: string },
  ): Promise<IpnOutcome> {
    const subscrId = subscrIdOf(params);
    const done = async (reason: string, outcome: IpnOutcome = "rejected") => {
      await record(eventId, params, outcome, reason, order.id);
      return outcome;
    };
    if (!subscrId) return done("a subscription notice without a subscription id");
    const existing = await subscriptions.bySubscrId(subscrId);
    if (existing && existing.orderId !== order.id) return done("the subscription belongs to another order");
    const noticeKey = `${subscrId}:${params.get("ipn_track_id") ?? params.get("txn_id") ?? eventId}`;
    // What the order asked PayPal for (domain/subscription-price.ts): an introductory first payment or none, then each
    // period's.
    const terms = subscriptionTerms(order);
    // A failed payment's mail says the amount PayPal tried: the first payment's while the order is unpaid, else a
    // later period's.
    const tried = paymentDue(terms, order.paymentStatus === "UnPaid" ? 1 : 2);
    const note = () => subscriptions.note(notice, subscrId, { ...order, packagePrice: tried }, PAYPAL_ACTOR, noticeKey);

    if (notice === "signup") {
      if (params.get("mc_currency") !== "USD") return done(`currency ${params.get("mc_currency")} is not USD`);
      if (cents(params.get("mc_amount3") ?? params.get("amount3") ?? "NaN") !== cents(terms.regular))
        return done(`amount ${params.get("mc_amount3")} is not the order's ${terms.regular.toFixed(2)} each period`);
      if (periodDays(params.get("period3")) !== order.packageValidity)
        return done(`period ${params.get("period3")} is not the order's ${order.packageValidity} days`);
      // The introductory period: exactly the one we sent (the first-period code's price for one period), or none.
      const intro = params.get("mc_amount1") ?? params.get("amount1");
      const introPeriod = params.get("period1");
      if (terms.intro === null && (intro !== null || introPeriod !== null))
        return done(`an introductory period (${intro ?? "?"} for ${introPeriod ?? "?"}) the order did not ask for`);
      if (terms.intro !== null && cents(intro ?? "NaN") !== cents(terms.intro))
        return done(`first period's amount ${intro ?? "(none)"} is not the order's ${terms.intro.toFixed(2)}`);
      if (terms.intro !== null && periodDays(introPeriod) !== order.packageValidity)
        return done(`first period ${introPeriod ?? "(none)"} is not the order's ${order.packageValidity} days`);
      const { changed } = await note();
      return done(
        changed ? "subscription recorded" : "subscription already recorded",
        changed ? "applied" : "duplicate",
      );
    }
    if (notice === "cancel" || notice === "end" || notice === "failed") {
      const { changed } = await note();
      const what = {
        cancel: "cancelled: no more renewals",
        end: "ended",
        failed: "payment failed: customer and admins told",
      }[notice];
      return done(
        changed ? `subscription ${what}` : `subscription already ${notice === "end" ? "ended" : "cancelled"}`,
        changed ? "applied" : "duplicate",
      );
    }

    // A period's payment.
    const status = params.get("payment_status");
    if (status === "Pending") {
      if (order.paymentStatus === "UnPaid") await ordersService.notePending(order.id, params.get("pending_reason"));
      return done("subscription payment pending", "pending");
    }
    if (status !== "Completed") return done(`payment status ${status ?? "(none)"} changes nothing`, "ignored");
    if (params.get("mc_currency") !== "USD") return done(`currency ${params.get("mc_currency")} is not USD`);
    // The first payment pays the placed order (its price); each later one is a renewal at the later periods' price.
    const due = tried;
    if (cents(params.get("mc_gross") ?? "NaN") !== cents(due))
      return done(
        `amount ${params.get("mc_gross")} is not this ${order.paymentStatus === "UnPaid" ? "first" : "renewal"} payment's ${due.toFixed(2)}`,
      );
    const txnId = params.get("txn_id");
    if (!txnId) return done("no transaction id");
    const decision = decideSubscriptionPayment({
      subscription: existing ? { orderId: existing.orderId, status: existing.status } : null,
      order,
      txnApplied: await txnApplied(txnId),
      signupRefused: !existing && (await signupRefused(order.id, subscrId)),
    });
    if (decision.kind === "duplicate") return done(`transaction ${txnId} was already applied`, "duplicate");
    if (decision.kind === "refuse") return done(decision.reason);
    // The subscription is recorded first (a payment may come before its sign-up), then the money.
    const { subscription } = await note();
    if (subscription.status !== "active") return done("a payment on a subscription no longer active: nothing renewed");
    try {
      if (decision.kind === "pay-order") {
        const result = await ordersService.pay(order.id, PAYPAL_ACTOR, txnId);
        return done(
          result.changed ? "subscription's first payment: order marked Paid" : "order was already Paid",
          result.changed ? "applied" : "duplicate",
        );
      }
      const renewal = await ordersService.renew(order.id, txnId, subscrId);
      return done(`renewal: order ${renewal.order.number} paid`, "applied");
    } catch (error) {
      if (isUniqueViolation(error)) return done(`transaction ${txnId} was already applied`, "duplicate");
      // The order cannot take the payment (its code used up meanwhile: decision 060): recorded, and the admins told.
      if (isAppError(error) && error.status === 409) {
        await ordersService.paymentNotApplied(order.id, txnId, Number(params.get("mc_gross")), error.message);
        return done(error.message);
      }
      throw error;
    }
  }

  return {
    mode,
    bindSelf(url: string) {
      selfUrl = url.replace(/\/+$/, "");
    },

    /** The form the pay screen posts (spec: cmd _xclick, item_number 1, no_shipping 1, USD, the three addresses). */
    async checkout(order: {
      _id: string;
      orderNumber: string;
      packageName: string;
      packagePrice: number;
      packageValidity: number;
    }): Promise<CheckoutForm> {
      const base = config.publicUrl;
      return {
        // The simulator is a page of this site: a path, so the button posts to whichever address the page was opened
        // at (localhost, 127.0.0.1, [::1]), which the CSP's form-action 'self' allows and where the session cookie is.
        action: mode === "simulator" ? SIMULATOR_PATH : ENDPOINTS[mode].checkout,
        fields: {
          cmd: "_xclick",
          business: await accounts.receiver(),
          item_name: `${order.orderNumber}: ${order.packageName} membership (${order.packageValidity} days)`,
          item_number: "1",
          amount: order.packagePrice.toFixed(2),
          currency_code: "USD",
          no_shipping: "1",
          charset: "utf-8",
          custom: order._id,
          invoice: order._id,
          notify_url: `${base}/api/paypal/ipn`,
          return: `${base}/received-payment/${order._id}`,
          cancel_return: `${base}/order-cancelled/${order._id}`,
          rm: "1",
        },
      };
    },

    /**
     * The subscribe form (decision 046), offered beside the one-off form when the package renews automatically and its
     * validity is a period PayPal can bill, until the customer cancels: each period's price, after a first period at
     * the order's price when a first-period code lowered it (PayPal's introductory period, a1/p1/t1; decision 049).
     */
    async subscribeCheckout(
      order: PricedOrder & {
        _id: string;
        orderNumber: string;
        packageName: string;
        packageValidity: number;
      },
    ): Promise<(CheckoutForm & { terms: ReturnType<typeof subscriptionTerms> }) | null> {
      const period = paypalPeriod(order.packageValidity);
      if (!period || order.packagePrice <= 0) return null;
      const terms = subscriptionTerms(order);
      const once = await this.checkout(order);
      const fields = { ...once.fields };
      delete fields.amount;
      return {
        action: once.action,
        terms,
        fields: {
          ...fields,
          cmd: "_xclick-subscriptions",
          item_name: `${order.orderNumber}: ${order.packageName} membership (renews every ${order.packageValidity} days)`,
          ...subscriptionFields(terms, period),
          src: "1",
          sra: "1",
          no_note: "1",
        },
      };
    },

    receive,

    /** Stores a notification, then processes it (the simulator and tests; the listener answers in between). */
    async handleIpn(raw: string): Promise<IpnOutcome | null> {
      const eventId = await receive(raw);
      return eventId ? this.process(eventId, raw) : null;
    },

    /**
     * One stored IPN message: verified by postback, then checked (Completed, our receiver, the order's amount in USD,
     * a transaction id never seen) before the order becomes Paid. Anything else changes nothing, except a Pending
     * status (shown while we wait) and a refund or reversal of the order's payment.
     */
    async process(eventId: string, raw: string): Promise<IpnOutcome> {
      const params = new URLSearchParams(raw);
      const orderId = params.get("custom");
      const verified = await verify(raw);
      if (verified instanceof Error) {
        await record(eventId, params, "unverified", `verification failed: ${verified.message}`, orderId);
        return "unverified";
      }
      if (verified === "INVALID") {
        await record(eventId, params, "invalid", "PayPal answered INVALID", orderId);
        return "invalid";
      }
      const order = orderId ? await ordersService.byId(orderId) : undefined;
      if (!order) {
        await record(eventId, params, "ignored", "no order matches the custom field", orderId);
        return "ignored";
      }
      const receiver = (params.get("receiver_email") ?? params.get("business") ?? "").toLowerCase();
      if (receiver !== (await accounts.receiver()).toLowerCase()) {
        await record(eventId, params, "rejected", `receiver ${receiver || "(none)"} is not our account`, order.id);
        return "rejected";
      }
      const status = params.get("payment_status");
      const txnId = params.get("txn_id");

      const notice = subscriptionNotice(params.get("txn_type"));
      if (notice) return processSubscription(eventId, params, notice, order);

      if (status === "Completed") {
        if (params.get("mc_currency") !== "USD") {
          await record(eventId, params, "rejected", `currency ${params.get("mc_currency")} is not USD`, order.id);
          return "rejected";
        }
        if (cents(params.get("mc_gross") ?? "NaN") !== cents(order.packagePrice)) {
          await record(
            eventId,
            params,
            "rejected",
            `amount ${params.get("mc_gross")} is not the order's ${order.packagePrice.toFixed(2)}`,
            order.id,
          );
          return "rejected";
        }
        if (!txnId) {
          await record(eventId, params, "rejected", "no transaction id", order.id);
          return "rejected";
        }
        const seen = await db
          .select({ id: paymentEvents.id })
          .from(paymentEvents)
          .where(and(eq(paymentEvents.txnId, txnId), eq(paymentEvents.outcome, "applied")))
          .limit(1);
        const usedBy = await ordersService.byTxnId(txnId);
        if (seen.length || usedBy) {
          await record(eventId, params, "duplicate", `transaction ${txnId} was already applied`, order.id);
          return "duplicate";
        }
        try {
          // The order's command: Paid, the membership timeline, the mails (the customer's receipt; every admin's
          // "waiting for delivery" unless it is activated at once), the activity entry, in one transaction.
          const result = await ordersService.pay(order.id, PAYPAL_ACTOR, txnId);
          await record(
            eventId,
            params,
            result.changed ? "applied" : "duplicate",
            result.changed ? "order marked Paid" : "order was already Paid",
            order.id,
          );
          return result.changed ? "applied" : "duplicate";
        } catch (error) {
          if (isUniqueViolation(error)) {
            await record(eventId, params, "duplicate", `transaction ${txnId} was already applied`, order.id);
            return "duplicate";
          }
          // The order cannot take the payment (its code used up meanwhile: decision 060): the money is recorded, not
          // applied; every admin is mailed to refund it (the order's page shows the notification and why).
          if (isAppError(error) && error.status === 409) {
            await record(eventId, params, "rejected", error.message, order.id);
            await ordersService.paymentNotApplied(order.id, txnId, Number(params.get("mc_gross")), error.message);
            return "rejected";
          }
          throw error;
        }
      }

      if (status === "Refunded" || status === "Reversed") {
        // A subscription's renewal is an order of its own, named by its transaction (the notice names the first order).
        const parent = params.get("parent_txn_id");
        const renewal = parent && parent !== order.txnId ? await ordersService.byTxnId(parent) : undefined;
        const renewed =
          renewal?.subscrId && (await subscriptions.bySubscrId(renewal.subscrId))?.orderId === order.id
            ? renewal
            : undefined;
        if (!renewed && (!order.txnId || parent !== order.txnId)) {
          await record(eventId, params, "rejected", `${status} of a payment that is not this order's`, order.id);
          return "rejected";
        }
        const { changed } = await ordersService.refund(
          renewed?.id ?? order.id,
          PAYPAL_ACTOR,
          status === "Reversed" ? "reverse" : "refund",
        );
        await record(
          eventId,
          params,
          changed ? "refunded" : "duplicate",
          changed ? `${status}: order Refunded, membership ended` : "already refunded",
          order.id,
        );
        return changed ? "refunded" : "duplicate";
      }

      if (status === "Pending") {
        const reason = params.get("pending_reason");
        await ordersService.notePending(order.id, reason);
        await record(eventId, params, "pending", `payment pending${reason ? `: ${reason}` : ""}`, order.id);
        return "pending";
      }

      await record(eventId, params, "ignored", `payment status ${status ?? "(none)"} changes nothing`, order.id);
      return "ignored";
    },

    /**
     * Processes again what is stored but unfinished: notifications stored when the app stopped before processing them
     * (older than a minute, so that one being processed right now is left alone), and those of the last three days that
     * could not be verified when they arrived (PayPal unreachable; it does not resend a message we answered 200).
     * A recurring job (services/index.ts): at start and every 5 minutes, one run at a time across all instances.
     */
    async retryUnverified(): Promise<{ retried: number }> {
      const pending = await db
        .select({ id: paymentEvents.id, raw: paymentEvents.raw })
        .from(paymentEvents)
        .where(
          and(
            inArray(paymentEvents.outcome, TO_PROCESS),
            sql`${paymentEvents.receivedAt} > now() - interval '3 days'`,
            sql`(${paymentEvents.outcome} <> ${IPN_RECEIVED} or ${paymentEvents.receivedAt} < now() - interval '1 minute')`,
          ),
        )
        .orderBy(paymentEvents.receivedAt)
        .limit(50);
      for (const { id, raw } of pending) await this.process(id, raw);
      return { retried: pending.length };
    },

    /** Last notifications about an order, newest first (the return page and the admin). */
    async events(orderId: string) {
      return db
        .select()
        .from(paymentEvents)
        .where(eq(paymentEvents.orderId, orderId))
        .orderBy(sql`${paymentEvents.receivedAt} desc`)
        .limit(20);
    },

    simulator: createPayPalSimulator({ db, config, orders: ordersService, logger, selfUrl: () => selfUrl }),
  };
}

export type PayPalService = ReturnType<typeof createPayPalService>;
