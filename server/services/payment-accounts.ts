import { asc, eq } from "drizzle-orm";
import { z } from "zod";
import { parseWith } from "#domain/validation.ts";
import { emailAddress } from "#domain/fields.ts";
import type { Db } from "../db/client";
import { paymentAccounts } from "../db/schema";
import { badRequest, isId, notFound } from "../lib/errors";
import { audited, type Actor } from "./activity";

export type PaymentAccountRecord = { _id: string; paypalEmail: string };

const schema = z.object({
  paypalEmail: emailAddress("PayPal email"),
});

/** The PayPal account that receives payments: the first record, or PAYPAL_RECEIVER_EMAIL when there is none. */
export function createPaymentAccountsService({ db, fallbackEmail }: { db: Db; fallbackEmail: string }) {
  const toRecord = (r: typeof paymentAccounts.$inferSelect): PaymentAccountRecord => ({
    _id: r.id,
    paypalEmail: r.paypalEmail,
  });
  return {
    async list(): Promise<PaymentAccountRecord[]> {
      return (await db.select().from(paymentAccounts).orderBy(asc(paymentAccounts.createdAt))).map(toRecord);
    },
    async get(id: string): Promise<PaymentAccountRecord> {
      if (!isId(id)) throw notFound();
      const [row] = await db.select().from(paymentAccounts).where(eq(paymentAccounts.id, id));
      if (!row) throw notFound();
      return toRecord(row);
    },
    async receiver(): Promise<string> {
      const [row] = await db.select().from(paymentAccounts).orderBy(asc(paymentAccounts.createdAt)).limit(1);
      return row?.paypalEmail ?? fallbackEmail;
    },
    async add(input: unknown, actor: Actor): Promise<string> {
      const parsed = parseWith(schema, input ?? {});
      if (!parsed.ok) throw badRequest(parsed.errors);
      return audited(db, actor, "payment_account", async (tx, audit) => {
        const [row] = await tx.insert(paymentAccounts).values(parsed.data).returning({ id: paymentAccounts.id });
        await audit.created(row!.id, parsed.data);
        return row!.id;
      });
    },
    async update(id: string, input: unknown, actor: Actor): Promise<{ modified: boolean }> {
      const parsed = parseWith(schema, input ?? {});
      if (!parsed.ok) throw badRequest(parsed.errors);
      if (!isId(id)) throw notFound();
      return audited(db, actor, "payment_account", async (tx, audit) => {
        const [existing] = await tx.select().from(paymentAccounts).where(eq(paymentAccounts.id, id)).for("update");
        if (!existing) throw notFound();
        if (existing.paypalEmail === parsed.data.paypalEmail) return { modified: false };
        await tx
          .update(paymentAccounts)
          .set({ ...parsed.data, updatedAt: new Date() })
          .where(eq(paymentAccounts.id, id));
        await audit.updated(id, { paypalEmail: existing.paypalEmail }, parsed.data);
        return { modified: true };
      });
    },
  };
}

export type PaymentAccountsService = ReturnType<typeof createPaymentAccountsService>;
