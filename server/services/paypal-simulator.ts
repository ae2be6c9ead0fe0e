import { createHash, randomBytes } from "node:crypto";
import { eq } from "drizzle-orm";
import type { Config } from "../config";
import type { Db } from "../db/client";
import { simulatorMessages } from "../db/schema";
import { AppError } from "../lib/errors";
import type { Logger } from "../lib/logger";
import type { OrdersService } from "./orders";

export const SIMULATOR_PATH = "/paypal-simulator";
export const SIMULATOR_VERIFY_PATH = "/paypal-simulator/cgi-bin/webscr";

const digest = (raw: string) => createHash("sha256").update(raw).digest("hex");

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

  return {
    /** What the simulator's checkout page shows for the posted form; refuses forms that are not ours. */
    async describe(fields: Record<string, string>) {
      if (mode !== "simulator") throw new AppError(404, "The PayPal simulator is off (PAYPAL_MODE is not simulator).");
      const order = fields.custom ? await ordersService.byId(fields.custom) : undefined;
      if (
        !order ||
        fields.cmd !== "_xclick" ||
        !ownPath(fields.notify_url) ||
        !ownPath(fields.return) ||
        !ownPath(fields.cancel_return)
      ) {
        throw new AppError(400, "This payment form is not one of this site's.");
      }
      return {
        orderId: order.id,
        itemName: fields.item_name ?? order.packageName,
        amount: fields.amount ?? "",
        currency: fields.currency_code ?? "",
        business: fields.business ?? "",
        payable: order.paymentStatus === "UnPaid",
      };
    },

    /** 'Pay': sends PayPal's notification (a real POST to notify_url), then answers where to send the buyer. */
    async pay(fields: Record<string, string>): Promise<string> {
      const info = await this.describe(fields);
      const txnId = randomBytes(9).toString("hex").toUpperCase().slice(0, 17);
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
      await db.insert(simulatorMessages).values({ digest: digest(ipn) });
      const res = await fetch(deps.selfUrl() + ownPath(fields.notify_url)!, {
        method: "POST",
        headers: {
          "content-type": "application/x-www-form-urlencoded",
          "user-agent": "PayPal IPN ( https://www.paypal.com/ipn )",
        },
        body: ipn,
        signal: AbortSignal.timeout(10_000),
      });
      if (!res.ok) logger.warn({ status: res.status }, "the simulated notification was not accepted");
      return ownPath(fields.return)!;
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
