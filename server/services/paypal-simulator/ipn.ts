import { randomBytes } from "node:crypto";
import { paymentDue, type SubscriptionTerms } from "#domain/subscription-price.ts";
import { newTxnId } from "./context";

/** What a notification says of the order and the form it pays. */
export interface IpnInfo {
  orderId: string;
  itemName: string;
  currency: string;
  business: string;
}

/**
 * A subscription notification as PayPal words it (Website Payments Standard). PayPal takes what the form asked for
 * (domain/subscription-price.ts): payment `n` is a1 for the first when the form had an introductory period, else a3.
 */
export function subscriptionIpn(
  fields: Record<string, string>,
  info: IpnInfo,
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

/** A one-time payment's notification (web_accept) as PayPal words it. */
export function paymentIpn(info: IpnInfo & { amount: string }, txnId: string): string {
  return new URLSearchParams({
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
}
