import { Form, Link } from "react-router";
import type { Route } from "./+types/customers";
import {
  CUSTOMER_SORTS,
  CUSTOMER_STATE_LABELS,
  customersHref,
  customerStateTone,
  SORT_LABELS,
  STATE_FILTERS,
  STATE_LABELS,
  type CustomerFilters,
} from "#domain/customer-states.ts";
import { customerFiltersFromSearch } from "#domain/customers.ts";
import { longDate } from "#domain/dates.ts";
import { money } from "#domain/format.ts";
import { Badge, DataTable } from "#app/components/DataTable.tsx";
import { SelectField, TextField } from "#app/components/forms.tsx";
import { requireStaff } from "#app/lib/guards.server.ts";
import { AdminHeader } from "#app/components/admin/AdminHeader.tsx";

/** Customers shown per page. */
export const CUSTOMERS_PAGE_SIZE = 20;

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireStaff(request, context, "customers");
  const url = new URL(request.url);
  const filters = customerFiltersFromSearch(url.searchParams);
  const { customers, page } = await context.services.customers.list(filters, {
    page: url.searchParams.get("page"),
    perPage: CUSTOMERS_PAGE_SIZE,
  });
  return { customers, page, filters, timeZone: context.config.timeZone };
}

export const meta: Route.MetaFunction = () => [{ title: "Customers" }, { name: "robots", content: "noindex" }];

export default function Customers({ loaderData: { customers, page, filters, timeZone } }: Route.ComponentProps) {
  const filtered = Boolean(filters.q || filters.state);
  return (
    <>
      <AdminHeader
        title="Customers"
        lead="Everyone with an account who is not on the staff, with their membership."
        actions={
          <>
            <Link to="/customers/import" className="btn-outline px-4 py-2 text-xs">
              Import members
            </Link>
            <Link
              to={customersHref(filters).replace("/customers", "/customers.csv")}
              reloadDocument
              className="btn-outline px-4 py-2 text-xs"
            >
              Export CSV
            </Link>
          </>
        }
      />
      <StateTabs filters={filters} />
      <FilterForm filters={filters} />
      <DataTable
        testId="customers"
        columns={[
          {
            header: "Customer",
            typed: true,
            cell: (c) => (
              <>
                <Link to={`/customers/${c.id}`} className="block font-semibold text-forest hover:text-clay">
                  {c.name || c.email}
                </Link>
                {c.name && c.email ? <span className="text-xs break-all text-mist">{c.email}</span> : null}
              </>
            ),
          },
          {
            header: "Membership",
            cell: (c) => (
              <span className="flex flex-wrap items-center gap-x-2 gap-y-1">
                <Badge tone={c.endingSoon ? "amber" : customerStateTone(c.state)}>
                  {c.endingSoon ? "Ending soon" : CUSTOMER_STATE_LABELS[c.state]}
                </Badge>
              </span>
            ),
          },
          {
            header: "Membership ends",
            cell: (c) =>
              c.membershipEnds ? (
                <span className="whitespace-nowrap">{longDate(c.membershipEnds, timeZone)}</span>
              ) : (
                <span className="text-mist">—</span>
              ),
          },
          { header: "Orders", cell: (c) => c.orders },
          { header: "Total spent", cell: (c) => <span className="whitespace-nowrap">${money(c.spent)}</span> },
          {
            header: "Joined",
            cell: (c) => <span className="whitespace-nowrap">{longDate(c.joinedAt, timeZone)}</span>,
          },
        ]}
        rows={customers}
        rowKey={(c) => c.id}
        empty={filtered ? "No customer matches this search." : "No customers yet."}
        page={page}
      />
    </>
  );
}

/** The membership states as links (each view has an address: Today links to "ending soon"). */
function StateTabs({ filters }: { filters: CustomerFilters }) {
  const tab = (active: boolean) =>
    `inline-flex items-center rounded-full px-4 py-2 text-sm font-medium ${active ? "bg-forest text-white" : "bg-white text-ink/80 ring-1 ring-linen hover:text-clay"}`;
  return (
    <nav aria-label="Membership" className="mb-4 flex flex-wrap gap-2">
      <Link
        to={customersHref({ ...filters, state: undefined })}
        className={tab(!filters.state)}
        aria-current={!filters.state ? "page" : undefined}
      >
        All
      </Link>
      {STATE_FILTERS.map((s) => (
        <Link
          key={s}
          to={customersHref({ ...filters, state: s })}
          className={tab(filters.state === s)}
          aria-current={filters.state === s ? "page" : undefined}
        >
          {STATE_LABELS[s]}
        </Link>
      ))}
    </nav>
  );
}

/** Search and sort: a GET form, so a view can be bookmarked and works without JavaScript. */
function FilterForm({ filters }: { filters: CustomerFilters }) {
  return (
    <Form
      method="get"
      action="/customers"
      key={JSON.stringify(filters)}
      className="mb-6 grid gap-x-4 gap-y-3 rounded-2xl bg-white p-5 ring-1 ring-linen sm:grid-cols-2 lg:grid-cols-[2fr_1fr_1fr_auto]"
      data-testid="customer-filters"
    >
      <TextField
        label="Name, email or order number"
        name="q"
        type="search"
        defaultValue={filters.q ?? ""}
        placeholder="A name on any of their orders, an invoice number…"
      />
      <SelectField
        label="Membership"
        name="state"
        options={STATE_FILTERS.map((s) => ({ value: s, label: STATE_LABELS[s] }))}
        placeholder="Any"
        defaultValue={filters.state ?? ""}
      />
      <SelectField
        label="Sort by"
        name="sort"
        options={CUSTOMER_SORTS.map((s) => ({ value: s, label: SORT_LABELS[s] }))}
        placeholder="Joined (newest first)"
        defaultValue={filters.sort === "joined" ? "" : filters.sort}
      />
      <div className="flex items-end gap-3">
        <button type="submit" className="btn-dark px-5 py-3">
          Search
        </button>
        {filters.q || filters.state || filters.sort !== "joined" ? (
          <Link to="/customers" className="py-3 text-sm font-semibold text-clay hover:underline">
            Clear
          </Link>
        ) : null}
      </div>
    </Form>
  );
}
