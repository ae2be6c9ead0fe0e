import { createOrderCommands, type OrderCommandsDeps } from "./commands";
import { createOrderQueries } from "./queries";

export { PAYPAL_ACTOR } from "./commands";
export { ORDERS_COUNT_LIMIT } from "./queries";
export { scope, toOrderRecord, type OrderRecord, type OrderRow } from "./record";

/** The queries need a subset of what the commands need: one set of dependencies for both. */
export type OrdersServiceDeps = OrderCommandsDeps;

/**
 * Orders and the membership they give: the reads (queries.ts) and the one writer (commands.ts), as one face for the
 * pages, the REST handlers and the payment listener. Prices and validity come from the package record, never from the
 * browser; a customer only ever sees their own orders (an order of someone else is "not found").
 */
export function createOrdersService(deps: OrdersServiceDeps) {
  const queries = createOrderQueries(deps);
  const commands = createOrderCommands(deps);
  return {
    ...queries,
    ...commands,
    /** At start: the tallies in the site's time zone, then the timelines a migration queued. */
    async start() {
      await queries.start();
      await commands.recomputeQueued();
    },
  };
}

export type OrdersService = ReturnType<typeof createOrdersService>;
