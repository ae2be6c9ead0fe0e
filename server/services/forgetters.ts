import type { Person } from "#domain/privacy.ts";
import { forgetAccount, forgetCustomerRecord, forgetSignIn } from "./account-forgetters";
import { forgetPerson as forgetInLog, type Actor } from "./activity";
import { forgetStaffMember } from "./admin-users";
import { forgetPerson as forgetConsents } from "./auth-hooks";
import type { CreditNotesService } from "./credit-notes";
import { forgetPerson as forgetImports } from "./imports";
import { forgetPerson as forgetMessages } from "./inbox";
import { forgetPerson as forgetMailJobs, type Tx } from "./jobs";
import { forgetPerson as forgetSubscribers } from "./newsletter";
import { forgetPerson as forgetRecipients } from "./newsletters";
import type { OrdersService } from "./orders";
import { forgetPayer } from "./payments/controller";
import { forgetWords as forgetRefundWords } from "./payments/refunds";
import { forgetPerson as forgetCounters } from "./rate-limit";
import { forgetPerson as forgetReminders } from "./reminders";
import { forgetPerson as forgetSuppressions } from "./suppressions";
import { forgetPerson as forgetSecondFactor } from "./two-factor";
import { forgetPerson as forgetDeliveries } from "./webhooks";

/** What every forgetter is told besides the person: who erases, whether it is their own account, and when. */
export interface ForgetContext {
  actor: Actor;
  /** The person deleting their own account (a staff member may then leave the staff); false: staff erasing them. */
  ownAccount: boolean;
  at: Date;
}

/** What a forgetter reports for the erasure's log entry (only the orders' count today). */
export interface ForgetReport {
  ordersKept?: number;
}

/** One store of personal data and its owner's way of forgetting a person in it, in the erasure's transaction. */
export interface Forgetter {
  /** The store, in words (the decision's table names them the same). */
  store: string;
  forget(tx: Tx, person: Person, context: ForgetContext): Promise<ForgetReport | void>;
}

/**
 * Every store that holds personal data, each forgotten by its owning module (decision 086), in this order: the staff
 * rule first (it may refuse), the orders before what hangs on them, the account row and the customer's mark last. The
 * privacy service runs them in one transaction and knows none of their tables. A new store of personal data adds its
 * forgetter here; the privacy sweep (tests/integration/privacy.test.ts) fails until it does.
 */
export function forgetters(deps: {
  orders: Pick<OrdersService, "anonymiseTx">;
  creditNotes: Pick<CreditNotesService, "forgetWordsTx">;
  /** Where the member imports' uploaded files are (DATA_DIR/imports). */
  importsDir: string;
}): readonly Forgetter[] {
  return [
    { store: "staff list", forget: (tx, person, c) => forgetStaffMember(tx, person, c.ownAccount) },
    {
      store: "orders",
      // The orders' one writer anonymises them (decision 045): kept for the accounts, without the person.
      forget: async (tx, person, c) => {
        const { orders } = await deps.orders.anonymiseTx(tx, person.userId, c.actor, {
          name: person.names[0] ?? "",
          email: person.emails[0] ?? "",
        });
        return { ordersKept: orders };
      },
    },
    { store: "payment notices", forget: forgetPayer },
    { store: "refunds", forget: forgetRefundWords },
    { store: "credit notes", forget: (tx, person) => deps.creditNotes.forgetWordsTx(tx, person.userId) },
    { store: "sign-in (sessions, password, pending links)", forget: forgetSignIn },
    { store: "second factor", forget: forgetSecondFactor },
    { store: "consents", forget: forgetConsents },
    { store: "membership reminders", forget: forgetReminders },
    { store: "newsletter subscribers", forget: forgetSubscribers },
    { store: "contact messages", forget: forgetMessages },
    { store: "newsletter recipients", forget: forgetRecipients },
    { store: "suppression list", forget: forgetSuppressions },
    { store: "rate-limit counters", forget: forgetCounters },
    { store: "mail queue", forget: forgetMailJobs },
    { store: "webhook deliveries", forget: async (tx, person) => void (await forgetDeliveries(tx, person)) },
    { store: "member imports", forget: (tx, person) => forgetImports(tx, person, deps.importsDir) },
    { store: "activity log", forget: forgetInLog },
    { store: "account", forget: (tx, person, c) => forgetAccount(tx, person, c.at) },
    { store: "customer record", forget: forgetCustomerRecord },
  ];
}
