import { and, desc, eq, inArray } from "drizzle-orm";
import type { Config } from "#server/config.ts";
import { paymentNotices } from "#server/db/schema.ts";
import { isId } from "#server/lib/errors.ts";
import type { Db } from "#server/db/client.ts";
import type { Logger } from "#server/lib/logger.ts";
import type { MailsService } from "../mails";
import type { ContentService } from "../content";
import type { OrdersService } from "../orders";
import type { SubscriptionsService } from "../subscriptions";
import { createCheckoutService } from "./checkout";
import { createRefundsService, recordRefund, type RefundsDeps } from "./refunds";
import { createWebhookController } from "./controller";
import type { HandlerContext } from "./handlers";
import { createPayPalClient, PAYPAL_REST_HOSTS, PayPalRefusedError, type PayPalClient } from "./paypal/client";
import { PAYPAL_EVENT_TYPES } from "./paypal/notices";
import { createPayPalProvider } from "./paypal/provider";
import { createIpnListener, IPN_VERIFY_URLS } from "./paypal/ipn";
import { SIMULATOR_VERIFY_PATH } from "../paypal-simulator";
import type { PaymentProvider } from "./provider";
import { createPayPalRestSimulator, SIMULATOR_CREDENTIALS, SIMULATOR_REST_PREFIX } from "./paypal/simulator";
import { createPlansService } from "./plans";
import { createSubscribeService } from "./subscribe";

/** The REST provider where none is configured: only the IPN listener's handlers run then, and they never call it. */
const notConfigured = () =>
  Promise.reject(new Error("PayPal's REST API is not configured (PAYPAL_CLIENT_ID and its secret)."));
const withoutRestApi: PaymentProvider = {
  name: "paypal",
  createCheckout: notConfigured,
  readCheckout: notConfigured,
  capture: notConfigured,
  refund: notConfigured,
  createPlan: notConfigured,
  startSubscription: notConfigured,
  readSubscription: notConfigured,
  cancelSubscription: notConfigured,
  receive: notConfigured,
};

/** Where a provider's webhooks arrive (server/http/routes/payments.ts): under /api. */
export const webhookPath = (provider: string) => `/payments/${provider}/webhook`;

/**
 * The payments module (issue 34; its shape is decision 065): PayPal's REST client and provider (the simulator's REST
 * side in simulator mode), and the webhook controller that stores each notice once and hands it to its handler, which
 * calls the order commands. Payments Standard's IPN listener (paypal/ipn.ts) stays for what was started on it.
 */
export function createPaymentsService(deps: {
  db: Db;
  config: Config;
  logger: Logger;
  now: () => Date;
  orders: Pick<
    OrdersService,
    | "get"
    | "pay"
    | "renew"
    | "refund"
    | "notePending"
    | "noteDenied"
    | "flagPayment"
    | "byId"
    | "byTxnId"
    | "paymentNotApplied"
  >;
  mails: Pick<MailsService, "queue">;
  creditNotes: RefundsDeps["creditNotes"];
  content: Pick<ContentService, "get">;
  subscriptions: HandlerContext["subscriptions"] & Pick<SubscriptionsService, "get" | "markCancelled">;
  /** Our PayPal account's address, as Payments Standard's messages name it (the payment accounts' first). */
  receiver: () => Promise<string>;
}) {
  const { config, logger } = deps;
  let selfUrl = `http://127.0.0.1:${config.port}`;
  const simulator =
    config.paypalMode === "simulator"
      ? createPayPalRestSimulator({
          db: deps.db,
          logger,
          now: deps.now,
          publicUrl: config.publicUrl,
          selfUrl: () => selfUrl,
        })
      : null;
  const credentials = simulator ? SIMULATOR_CREDENTIALS : config.paypalCredentials;
  const paypal: PayPalClient | null = credentials
    ? createPayPalClient({
        baseUrl: () =>
          config.paypalMode === "simulator" ? selfUrl + SIMULATOR_REST_PREFIX : PAYPAL_REST_HOSTS[config.paypalMode],
        ...credentials,
        now: () => deps.now().getTime(),
      })
    : null;
  /** PAYPAL_WEBHOOK_ID, else the webhook found or registered at the start (registerWebhook). */
  let webhookId = config.paypalWebhookId;
  const provider = paypal
    ? createPayPalProvider({ client: paypal, webhookId: () => webhookId, brandName: "Atelier North" })
    : null;
  const refunds = provider
    ? createRefundsService({
        db: deps.db,
        orders: deps.orders,
        mails: deps.mails,
        creditNotes: deps.creditNotes,
        now: deps.now,
        provider,
        logger,
      })
    : null;
  const context: HandlerContext | null =
    provider && refunds
      ? { db: deps.db, orders: deps.orders, subscriptions: deps.subscriptions, provider, refunds, receiver: null }
      : null;
  // Payments Standard's listener (decision 069): the same handlers; its notices never ask the REST provider (a start
  // without REST credentials still hears its legacy subscriptions, and records their refunds).
  const recorder: HandlerContext["refunds"] = {
    record: (input) =>
      recordRefund(
        { db: deps.db, orders: deps.orders, mails: deps.mails, creditNotes: deps.creditNotes, now: deps.now },
        input,
      ),
  };
  const ipn = createIpnListener({
    db: deps.db,
    logger,
    now: deps.now,
    verifyUrl: () =>
      config.paypalMode === "simulator" ? selfUrl + SIMULATOR_VERIFY_PATH : IPN_VERIFY_URLS[config.paypalMode],
    receiver: deps.receiver,
    context: context ?? {
      db: deps.db,
      orders: deps.orders,
      subscriptions: deps.subscriptions,
      provider: withoutRestApi,
      refunds: recorder,
      receiver: null,
    },
  });
  const controller = context
    ? createWebhookController({ db: deps.db, provider: context.provider, logger, now: deps.now, context })
    : null;
  const checkout = context
    ? createCheckoutService({
        db: deps.db,
        orders: deps.orders,
        context,
        publicUrl: config.publicUrl,
        logger,
        now: deps.now,
      })
    : null;
  const plans = provider ? createPlansService({ db: deps.db, provider, now: deps.now }) : null;
  const subscribe =
    provider && plans
      ? createSubscribeService({
          db: deps.db,
          orders: deps.orders,
          content: deps.content,
          subscriptions: deps.subscriptions,
          plans,
          provider,
          publicUrl: config.publicUrl,
          logger,
          now: deps.now,
        })
      : null;
  const webhookUrl = () => `${config.publicUrl.replace(/\/+$/, "")}/api${webhookPath("paypal")}`;

  return {
    /** PayPal's REST API (the simulator's on this server in simulator mode); null without credentials. */
    paypal,
    /** The provider new payments go through; null without credentials. */
    provider,
    /** One-time payments on the provider's checkout: start, capture on return, reconcile (null without one). */
    checkout,
    /** Refunds from the order screen through the provider, and the one writer of refunds (null without one). */
    refunds,
    /** The provider's billing plans, made once per package and terms (null without a provider). */
    plans,
    /** Automatic renewal on the provider's subscriptions: offer, start, return, cancel (null without a provider). */
    subscribe,
    /** The simulator's REST side (PAYPAL_MODE=simulator), else null. */
    simulator,
    /** PayPal Payments Standard's IPN listener, for what was started on it (POST /api/paypal/ipn). */
    ipn,
    /**
     * The last notices about an order, newest first (the order screen): webhooks and IPN messages, from the one store.
     */
    async events(orderId: string) {
      if (!isId(orderId)) return [];
      return deps.db
        .select({
          id: paymentNotices.id,
          provider: paymentNotices.provider,
          noticeType: paymentNotices.noticeType,
          outcome: paymentNotices.outcome,
          reason: paymentNotices.reason,
          receivedAt: paymentNotices.receivedAt,
        })
        .from(paymentNotices)
        .where(eq(paymentNotices.orderId, orderId))
        .orderBy(desc(paymentNotices.receivedAt))
        .limit(20);
    },
    /** The webhook controller of each provider by its name (the path's `:provider`). */
    controllers: (controller ? { paypal: controller } : {}) as Partial<Record<string, typeof controller & object>>,
    /** The webhook id notifications are verified against (null until configured or registered). */
    webhookId: () => webhookId,
    /**
     * At the start, when PAYPAL_WEBHOOK_ID is not set: our webhook at PayPal, found by its address or registered for
     * every event type we act on. PayPal holds it, so every instance finds the same one (a second registration of the
     * same address is refused, and the list then has it).
     */
    async registerWebhook(): Promise<string | null> {
      if (webhookId || !paypal) return webhookId;
      const url = webhookUrl();
      const find = async () => (await paypal.webhooks.list()).find((w) => w.url === url)?.id ?? null;
      let id = await find();
      if (!id) {
        try {
          id = (await paypal.webhooks.create(url, PAYPAL_EVENT_TYPES)).id;
          logger.info({ url, webhookId: id }, "PayPal webhook registered");
        } catch (error) {
          if (!(error instanceof PayPalRefusedError)) throw error;
          id = await find();
          if (!id) throw error;
        }
      }
      webhookId = id;
      return id;
    },
    /**
     * Whether the provider took money for this order that the order could not take (its code used up meanwhile,
     * decision 060, or money that did not match): a payment notice refused or flagged. The return page says so.
     */
    async paymentRefused(orderId: string): Promise<boolean> {
      if (!isId(orderId)) return false;
      const [row] = await deps.db
        .select({ id: paymentNotices.id })
        .from(paymentNotices)
        .where(
          and(
            eq(paymentNotices.orderId, orderId),
            inArray(paymentNotices.outcome, ["refused", "flagged"]),
            inArray(paymentNotices.noticeType, ["payment.completed", "checkout.approved", "subscription.payment"]),
          ),
        )
        .limit(1);
      return Boolean(row);
    },
    /**
     * Where to send the browser: an address of ours (PUBLIC_URL's origin: the simulator's approval page, our return and
     * cancel pages) as a path, so a local start stays on whichever loopback name the browser opened (its session
     * cookie is there); PayPal's own addresses unchanged.
     */
    browserAddress(address: string): string {
      const url = new URL(address);
      return url.origin === new URL(config.publicUrl).origin ? url.pathname + url.search : address;
    },
    /** How this server reaches itself, once it listens (the simulator's own address). */
    bindSelf(url: string) {
      selfUrl = url.replace(/\/+$/, "");
    },
  };
}
export type PaymentsService = ReturnType<typeof createPaymentsService>;
