import { and, desc, eq, inArray } from "drizzle-orm";
import type { Config } from "#server/config.ts";
import { paymentNotices } from "#server/db/schema.ts";
import { isId } from "#server/lib/errors.ts";
import type { Db } from "#server/db/client.ts";
import type { Logger } from "#server/lib/logger.ts";
import { withDeps } from "#server/lib/with-deps.ts";
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

export interface PaymentsDeps {
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
}

/** What changes while the service runs: how this server reaches itself, and the webhook id once registered. */
interface Live {
  selfUrl: string;
  /** PAYPAL_WEBHOOK_ID, else the webhook found or registered at the start (registerWebhook). */
  webhookId: string | null;
}

/** PayPal's REST side: the simulator's (in simulator mode), the client and the provider (null without credentials). */
function restSide(deps: PaymentsDeps, live: Live) {
  const { config, logger } = deps;
  const simulator =
    config.paypalMode === "simulator"
      ? createPayPalRestSimulator({
          db: deps.db,
          logger,
          now: deps.now,
          publicUrl: config.publicUrl,
          selfUrl: () => live.selfUrl,
        })
      : null;
  const credentials = simulator ? SIMULATOR_CREDENTIALS : config.paypalCredentials;
  const paypal: PayPalClient | null = credentials
    ? createPayPalClient({
        baseUrl: () =>
          config.paypalMode === "simulator"
            ? live.selfUrl + SIMULATOR_REST_PREFIX
            : PAYPAL_REST_HOSTS[config.paypalMode],
        ...credentials,
        now: () => deps.now().getTime(),
      })
    : null;
  const provider = paypal
    ? createPayPalProvider({ client: paypal, webhookId: () => live.webhookId, brandName: "Atelier North" })
    : null;
  return { simulator, paypal, provider };
}

/** The provider's refunds and the handlers' context (null without a provider). */
function handlerContext(deps: PaymentsDeps, provider: PaymentProvider | null) {
  const refunds = provider
    ? createRefundsService({
        db: deps.db,
        orders: deps.orders,
        mails: deps.mails,
        creditNotes: deps.creditNotes,
        now: deps.now,
        provider,
        logger: deps.logger,
      })
    : null;
  const context: HandlerContext | null =
    provider && refunds
      ? { db: deps.db, orders: deps.orders, subscriptions: deps.subscriptions, provider, refunds, receiver: null }
      : null;
  return { refunds, context };
}

/**
 * Payments Standard's listener (decision 069): the same handlers; its notices never ask the REST provider (a start
 * without REST credentials still hears its legacy subscriptions, and records their refunds).
 */
function ipnListener(deps: PaymentsDeps, live: Live, context: HandlerContext | null) {
  const { config } = deps;
  const recorder: HandlerContext["refunds"] = {
    record: (input) =>
      recordRefund(
        { db: deps.db, orders: deps.orders, mails: deps.mails, creditNotes: deps.creditNotes, now: deps.now },
        input,
      ),
  };
  return createIpnListener({
    db: deps.db,
    logger: deps.logger,
    now: deps.now,
    verifyUrl: () =>
      config.paypalMode === "simulator" ? live.selfUrl + SIMULATOR_VERIFY_PATH : IPN_VERIFY_URLS[config.paypalMode],
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
}

/** What needs the handlers' context (null without one): the webhook controller and the checkout. */
function contextServices(deps: PaymentsDeps, context: HandlerContext | null) {
  const { db, logger, now } = deps;
  const controller = context ? createWebhookController({ db, provider: context.provider, logger, now, context }) : null;
  const checkout = context
    ? createCheckoutService({ db, orders: deps.orders, context, publicUrl: deps.config.publicUrl, logger, now })
    : null;
  return { controller, checkout };
}

/** The provider's billing plans and the subscriptions on them (null without a provider). */
function subscriptionServices(deps: PaymentsDeps, provider: PaymentProvider | null) {
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
          publicUrl: deps.config.publicUrl,
          logger: deps.logger,
          now: deps.now,
        })
      : null;
  return { plans, subscribe };
}

/** The last notices about an order, newest first (the order screen): webhooks and IPN messages, from the one store. */
async function events({ db }: PaymentsDeps, orderId: string) {
  if (!isId(orderId)) return [];
  return db
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
}

/**
 * At the start, when PAYPAL_WEBHOOK_ID is not set: our webhook at PayPal, found by its address or registered for
 * every event type we act on. PayPal holds it, so every instance finds the same one (a second registration of the
 * same address is refused, and the list then has it).
 */
async function registerWebhook(
  { config, logger }: PaymentsDeps,
  live: Live,
  paypal: PayPalClient | null,
): Promise<string | null> {
  if (live.webhookId || !paypal) return live.webhookId;
  const url = `${config.publicUrl.replace(/\/+$/, "")}/api${webhookPath("paypal")}`;
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
  live.webhookId = id;
  return id;
}

/**
 * Whether the provider took money for this order that the order could not take (its code used up meanwhile,
 * decision 060, or money that did not match): a payment notice refused or flagged. The return page says so.
 */
async function paymentRefused({ db }: PaymentsDeps, orderId: string): Promise<boolean> {
  if (!isId(orderId)) return false;
  const [row] = await db
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
}

/**
 * Where to send the browser: an address of ours (PUBLIC_URL's origin: the simulator's approval page, our return and
 * cancel pages) as a path, so a local start stays on whichever loopback name the browser opened (its session
 * cookie is there); PayPal's own addresses unchanged.
 */
function browserAddress({ config }: PaymentsDeps, address: string): string {
  const url = new URL(address);
  return url.origin === new URL(config.publicUrl).origin ? url.pathname + url.search : address;
}

/**
 * The payments module (issue 34; its shape is decision 065): PayPal's REST client and provider (the simulator's REST
 * side in simulator mode), and the webhook controller that stores each notice once and hands it to its handler, which
 * calls the order commands. Payments Standard's IPN listener (paypal/ipn.ts) stays for what was started on it.
 */
export function createPaymentsService(deps: PaymentsDeps) {
  const live: Live = { selfUrl: `http://127.0.0.1:${deps.config.port}`, webhookId: deps.config.paypalWebhookId };
  const { simulator, paypal, provider } = restSide(deps, live);
  const { refunds, context } = handlerContext(deps, provider);
  const ipn = ipnListener(deps, live, context);
  const { controller, checkout } = contextServices(deps, context);
  const { plans, subscribe } = subscriptionServices(deps, provider);

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
    events: withDeps(deps, events),
    /** The webhook controller of each provider by its name (the path's `:provider`). */
    controllers: (controller ? { paypal: controller } : {}) as Partial<Record<string, typeof controller & object>>,
    /** The webhook id notifications are verified against (null until configured or registered). */
    webhookId: () => live.webhookId,
    registerWebhook: () => registerWebhook(deps, live, paypal),
    paymentRefused: withDeps(deps, paymentRefused),
    browserAddress: withDeps(deps, browserAddress),
    /** How this server reaches itself, once it listens (the simulator's own address). */
    bindSelf(url: string) {
      live.selfUrl = url.replace(/\/+$/, "");
    },
  };
}
export type PaymentsService = ReturnType<typeof createPaymentsService>;
