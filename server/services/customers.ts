import { withDeps } from "../lib/with-deps";
import { importMany, grant, sell, bankTransfer, resend, signOutEverywhere, setNote } from "./customers/commands";
import type { CustomersDeps } from "./customers/model";
import { displayNameOf, parseFilters, list, csv, get, saleDefaults } from "./customers/queries";

export {
  CUSTOMERS_COUNT_LIMIT,
  ERASED_NO_GRANT,
  ERASED_NO_SALE,
  RECORD_RECENT,
  type CustomerMail,
  type CustomerOrder,
  type CustomerRecord,
  type CustomerRow,
  type CustomersDeps,
} from "./customers/model";

/**
 * The customers (issue 26, part 2): the list, searched, filtered by membership state and sorted in SQL over the
 * figures the orders' triggers keep (customer_totals), its CSV, and the record with its actions. The reads are in
 * customers/queries.ts, the actions in customers/commands.ts, each a function over the same dependencies that this
 * factory only wires (decision 085). Orders are written only by the orders module (grant, payOutside); every action
 * here is audited.
 */
export function createCustomersService(deps: CustomersDeps) {
  return {
    displayNameOf: withDeps(deps, displayNameOf),
    parseFilters: withDeps(deps, parseFilters),
    list: withDeps(deps, list),
    csv: withDeps(deps, csv),
    importMany: withDeps(deps, importMany),
    get: withDeps(deps, get),
    grant: withDeps(deps, grant),
    sell: withDeps(deps, sell),
    saleDefaults: withDeps(deps, saleDefaults),
    bankTransfer: withDeps(deps, bankTransfer),
    resend: withDeps(deps, resend),
    signOutEverywhere: withDeps(deps, signOutEverywhere),
    setNote: withDeps(deps, setNote),
  };
}

export type CustomersService = ReturnType<typeof createCustomersService>;
