import { createHash } from "node:crypto";
import { and, eq, isNull, type SQL } from "drizzle-orm";
import { planKey, type PlanTerms } from "#domain/subscription-plan.ts";
import type { Db } from "#server/db/client.ts";
import { paymentPlans } from "#server/db/schema.ts";
import type { PaymentProvider } from "./provider";

export type PlanRow = typeof paymentPlans.$inferSelect;

/**
 * The provider's billing plans (issue 34 part 4, decision 070): one product and plan per package and terms, made on
 * demand by the first subscriber and reused. The only writer of payment_plans. Two customers subscribing at once make
 * one plan: both ask the provider with the same PayPal-Request-Id (made from the terms), so the provider answers both
 * with the same plan, and the table's unique key keeps one row.
 */
export function createPlansService(deps: { db: Db; provider: PaymentProvider; now: () => Date }) {
  const { db, provider } = deps;

  const where = (packageId: string, t: PlanTerms): SQL =>
    and(
      eq(paymentPlans.provider, provider.name),
      eq(paymentPlans.packageId, packageId),
      eq(paymentPlans.intervalUnit, t.period.unit),
      eq(paymentPlans.intervalCount, t.period.count),
      eq(paymentPlans.currency, t.currency),
      eq(paymentPlans.amount, t.amount),
      t.firstPayment === null ? isNull(paymentPlans.firstPayment) : eq(paymentPlans.firstPayment, t.firstPayment),
    )!;

  async function find(packageId: string, terms: PlanTerms): Promise<PlanRow | undefined> {
    const [row] = await db.select().from(paymentPlans).where(where(packageId, terms));
    return row;
  }

  return {
    find,

    /**
     * The plan for a package's terms: the one kept, else made at the provider (product, then plan; each with a request
     * id of the terms, so a retry or a second subscriber at the same moment gets the same one) and kept. Provider
     * errors reach the caller (nothing is kept then).
     */
    async planFor(pkg: { id: string; name: string }, terms: PlanTerms): Promise<PlanRow> {
      const kept = await find(pkg.id, terms);
      if (kept) return kept;
      const requestId = `plan-${createHash("sha256")
        .update(`${provider.name}|${planKey(pkg.id, terms)}`)
        .digest("hex")
        .slice(0, 40)}`;
      const made = await provider.createPlan({
        name: pkg.name,
        period: terms.period,
        amount: { currency: terms.currency, value: terms.amount },
        firstPayment: terms.firstPayment === null ? null : { currency: terms.currency, value: terms.firstPayment },
        requestId,
      });
      await db
        .insert(paymentPlans)
        .values({
          provider: provider.name,
          packageId: pkg.id,
          intervalUnit: terms.period.unit,
          intervalCount: terms.period.count,
          currency: terms.currency,
          amount: terms.amount,
          firstPayment: terms.firstPayment,
          productId: made.productId,
          planId: made.planId,
          createdAt: deps.now(),
        })
        .onConflictDoNothing();
      const row = await find(pkg.id, terms);
      if (!row) throw new Error("the plan just kept cannot be read");
      return row;
    },
  };
}
export type PlansService = ReturnType<typeof createPlansService>;
