import { LAST_ADMIN_DELETE, STAFF_NOT_ERASED } from "#domain/privacy.ts";
import { withDeps } from "#server/lib/with-deps.ts";
import { forgetters } from "./forgetters";
import { deleteOwnAccount, eraseCustomer, needsCode, subject } from "./privacy/erase";
import { exportData } from "./privacy/export";
import type { PrivacyContext, PrivacyDeps } from "./privacy/model";

export { ALREADY_ERASED, DELETE_LIMIT, type DataExport, type ErasureSubject, type PrivacyDeps } from "./privacy/model";
export { LAST_ADMIN_DELETE, STAFF_NOT_ERASED };

/**
 * The rights of access and erasure (UK GDPR articles 15 and 17; decision 045), in one place: "Download my data" reads a
 * person's records; erasure removes or anonymises them everywhere, in one transaction, and keeps what the agency must
 * keep for its accounts (their orders' numbers, amounts, dates, statuses and PayPal transaction ids, anonymised). The
 * download is in privacy/export.ts, the erasure in privacy/erase.ts, each a function over the same context that this
 * factory only wires (decision 085).
 */
export function createPrivacyService(deps: PrivacyDeps) {
  const ctx: PrivacyContext = { ...deps, now: deps.now ?? (() => new Date()), registry: forgetters(deps) };
  return {
    backupsKept: deps.backupsKept,
    exportData: withDeps(ctx, exportData),
    needsCode: withDeps(ctx, needsCode),
    deleteOwnAccount: withDeps(ctx, deleteOwnAccount),
    subject: withDeps(ctx, subject),
    eraseCustomer: withDeps(ctx, eraseCustomer),
  };
}

export type PrivacyService = ReturnType<typeof createPrivacyService>;
