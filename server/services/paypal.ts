import type { Config } from "../config";
import type { Db } from "../db/client";
import type { Logger } from "../lib/logger";
import type { OrdersService } from "./orders";
import type { PaymentAccountsService } from "./payment-accounts";
import { createPayPalSimulator, SIMULATOR_PATH } from "./paypal-simulator";
import { paypalPeriod } from "#domain/subscription.ts";
import { subscriptionFields, subscriptionTerms, type PricedOrder } from "#domain/subscription-price.ts";

export type PayPalMode = Config["paypalMode"];

/** Where Payments Standard's forms post (its IPN listener is payments/paypal/ipn.ts, decision 069). */
const CHECKOUT_URLS: Record<Exclude<PayPalMode, "simulator">, string> = {
  live: "https://www.paypal.com/cgi-bin/webscr",
  sandbox: "https://www.sandbox.paypal.com/cgi-bin/webscr",
};

export interface CheckoutForm {
  action: string;
  fields: Record<string, string>;
}

/**
 * PayPal Website Payments Standard's forms, kept only for the pay screen's Subscribe button until the Subscriptions API
 * replaces it (issue 34); its IPN listener lives in the payments module (payments/paypal/ipn.ts). The built-in
 * simulator (paypal-simulator.ts) stands in for PayPal's checkout page and postback on a machine with no internet.
 */
export function createPayPalService(deps: {
  db: Db;
  config: Config;
  orders: OrdersService;
  accounts: PaymentAccountsService;
  logger: Logger;
}) {
  const { db, config, orders: ordersService, accounts, logger } = deps;
  const mode = config.paypalMode;
  /** How this server reaches itself (set once it listens): the simulator's notifications go here. */
  let selfUrl = `http://127.0.0.1:${config.port}`;

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
      /** The order's currency (decision 072). */
      currency?: string;
    }): Promise<CheckoutForm> {
      const base = config.publicUrl;
      return {
        // The simulator is a page of this site: a path, so the button posts to whichever address the page was opened
        // at (localhost, 127.0.0.1, [::1]), which the CSP's form-action 'self' allows and where the session cookie is.
        action: mode === "simulator" ? SIMULATOR_PATH : CHECKOUT_URLS[mode],
        fields: {
          cmd: "_xclick",
          business: await accounts.receiver(),
          item_name: `${order.orderNumber}: ${order.packageName} membership (${order.packageValidity} days)`,
          item_number: "1",
          amount: order.packagePrice.toFixed(2),
          currency_code: order.currency ?? "USD",
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

    simulator: createPayPalSimulator({ db, config, orders: ordersService, logger, selfUrl: () => selfUrl }),
  };
}

export type PayPalService = ReturnType<typeof createPayPalService>;
