import { inArray, eq, sql } from "drizzle-orm";
import { REFUND_IN_DASHBOARD } from "#domain/refunds.ts";
import { ERASED_NAME, type Person } from "#domain/privacy.ts";
import { orders, paymentRefunds } from "#server/db/schema.ts";
import { withDeps } from "#server/lib/with-deps.ts";
import type { Tx } from "../jobs";
import type { RefundRecord, RefundsServiceDeps } from "./refunds/model";
import { panel } from "./refunds/queries";
import { recordRefund } from "./refunds/record";
import { refund } from "./refunds/refund";

export { REFUND_IN_DASHBOARD };
export {
  REFUND_PROVIDER_DOWN,
  refundFormSchema,
  type PaymentRail,
  type RefundLine,
  type RefundRecord,
  type RefundsDeps,
} from "./refunds/model";
export { recordRefund } from "./refunds/record";

/**
 * Refunds from the order screen through the provider (issue 34 part 3, decision 067): the whole payment or a part of
 * an order paid on the provider's checkout, within PayPal's 180 days, with one idempotency key per intended refund so
 * a double submit is one refund at PayPal; recorded by `recordRefund`, as the refund webhook is. The panel's reads are
 * in refunds/queries.ts, the refund in refunds/refund.ts, the one writer in refunds/record.ts (decision 085).
 */
export function createRefundsService(deps: RefundsServiceDeps) {
  return {
    record: (input: RefundRecord) => recordRefund(deps, input),
    panel: withDeps(deps, panel),
    refund: withDeps(deps, refund),
  };
}
export type RefundsService = ReturnType<typeof createRefundsService>;

/**
 * Forgets the words of a person's refunds (decisions 067, 086): the note to them and the studio's reason may name
 * them; the amounts, dates and the provider's ids stay for the accounts. A staff member who made refunds is named on
 * them no more (ERASED_NAME, as in the activity log).
 */
export async function forgetWords(tx: Tx, person: Person): Promise<void> {
  await tx
    .update(paymentRefunds)
    .set({ note: null, reason: null })
    .where(
      inArray(
        paymentRefunds.orderId,
        tx.select({ id: orders.id }).from(orders).where(eq(orders.userId, person.userId)),
      ),
    );
  if (person.emails.length)
    await tx
      .update(paymentRefunds)
      .set({ byEmail: ERASED_NAME })
      .where(sql`lower(${paymentRefunds.byEmail}) = any(${sql.param(person.emails)}::text[])`);
}
