import { withDeps } from "#server/lib/with-deps.ts";
import { markCancelled, note } from "./subscriptions/commands";
import type { SubscriptionsDeps } from "./subscriptions/model";
import { activeOf, bySubscrId, forUser, get, kindsOf, ofOrder } from "./subscriptions/queries";

export type {
  OrderSubscription,
  SubscribedOrder,
  SubscriptionOrderKind,
  SubscriptionRow,
  SubscriptionsDeps,
  SubscriptionView,
} from "./subscriptions/model";

/**
 * PayPal subscriptions (decision 046): the only writer of the subscriptions table. The PayPal listener reports each
 * verified notice (sign-up, payment, cancellation, failure, end of term); staff may mark one cancelled. Each change is
 * in the activity log in its transaction; a failed payment mails the customer and every admin, once per notice. The
 * reads are in subscriptions/queries.ts, the changes in subscriptions/commands.ts, each a function over the same
 * dependencies that this factory only wires (decision 085).
 */
export function createSubscriptionsService(deps: SubscriptionsDeps) {
  return {
    bySubscrId: withDeps(deps, bySubscrId),
    note: withDeps(deps, note),
    markCancelled: withDeps(deps, markCancelled),
    forUser: withDeps(deps, forUser),
    activeOf: withDeps(deps, activeOf),
    get: withDeps(deps, get),
    ofOrder: withDeps(deps, ofOrder),
    kindsOf: withDeps(deps, kindsOf),
  };
}

export type SubscriptionsService = ReturnType<typeof createSubscriptionsService>;
