import { data } from "react-router";

/**
 * What the actions of the PayPal simulator's pages (paypal-checkout.tsx, paypal-subscription.tsx) share: a button's
 * outcome played, and what the page says when PayPal refused it.
 */

/** Plays what PayPal does (the simulator's outcome, which sends its signed webhooks); the page says what was done. */
export async function played([run, done]: readonly [() => Promise<unknown>, string]) {
  await run();
  return { error: null, done };
}

/** A button's outcome that threw: a redirect (PayPal sending the buyer back) goes on; PayPal's refusal is said (409). */
export function refusedOutcome(error: unknown) {
  if (error instanceof Response) throw error;
  return data({ error: error instanceof Error ? error.message : String(error), done: null }, { status: 409 });
}
