import type { Route } from "./+types/reports";
import { BarChart } from "#app/components/charts/BarChart.tsx";
import { LineChart } from "#app/components/charts/LineChart.tsx";
import { FormAlert } from "#app/components/FormAlert.tsx";
import { requireStaff } from "#app/lib/guards.server.ts";
import { count } from "#domain/format.ts";
import { moneyIn, useCurrency } from "#app/lib/money.ts";
import {
  bucketLabel,
  PERIOD_PRESETS,
  REPORTS,
  RENEWAL_GRACE_DAYS,
  type Period,
  type ReportName,
  type Reports,
} from "#domain/reports.ts";
import { AdminHeader } from "#app/components/admin/AdminHeader.tsx";
import { DayRangeForm, ReportPeriod, ReportTabs } from "#app/components/admin/ReportPeriod.tsx";

/** The reports of a period: a preset (?period=this-month) or the site's days (?from=&to=); the last 12 months else. */
export async function loader({ request, context }: Route.LoaderArgs) {
  await requireStaff(request, context, "reports");
  const q = new URL(request.url).searchParams;
  const input = {
    period: q.get("period") ?? undefined,
    from: q.get("from") ?? undefined,
    to: q.get("to") ?? undefined,
  };
  const period = context.services.reports.period(input);
  if (!period.ok) return { reports: null, errors: period.errors, input };
  return { reports: await context.services.reports.of(period.data), errors: [], input };
}

export const meta: Route.MetaFunction = () => [{ title: "Reports" }, { name: "robots", content: "noindex" }];

/** The period's query string, for the CSV links and the presets' current state. */
const periodQuery = (p: Period) =>
  p.preset ? `period=${p.preset}` : `from=${encodeURIComponent(p.from)}&to=${encodeURIComponent(p.to)}`;

const percent = (r: number | null) => (r === null ? "—" : `${(r * 100).toFixed(1)}%`);

export default function ReportsPage({ loaderData: { reports, errors, input } }: Route.ComponentProps) {
  const error = (field: string) => errors.find((e) => e.field === field)?.message;
  const period = reports?.period;
  return (
    <>
      <AdminHeader
        title="Reports"
        lead={
          period
            ? `${bucketLabel(period.from, "day", "table")} to ${bucketLabel(period.to, "day", "table")}, ${period.unit === "day" ? "day by day" : "month by month"}`
            : "Choose a period."
        }
      />
      <ReportTabs active="sales" />
      <ReportPeriod
        id="period-heading"
        presets={PERIOD_PRESETS}
        current={period?.preset}
        note="Days are the studio's calendar days. A period can be up to 5 years long."
      >
        <DayRangeForm
          className="mt-4 grid gap-3 sm:grid-cols-[repeat(2,minmax(0,14rem))_auto] sm:items-start"
          from={period && !period.preset ? period.from : typeof input.from === "string" ? input.from : ""}
          to={period && !period.preset ? period.to : typeof input.to === "string" ? input.to : ""}
          errors={{ from: error("from"), to: error("to") }}
        />
      </ReportPeriod>
      {errors.length && !error("from") && !error("to") ? (
        <FormAlert>{errors.map((e) => e.message).join(" ")}</FormAlert>
      ) : null}
      {reports ? <ReportSections reports={reports} /> : null}
    </>
  );
}

function ReportSections({ reports }: { reports: Reports }) {
  // Amounts in the site's currency (every order's: it cannot change once orders exist, decision 072).
  const currency = useCurrency();
  const dollars = (n: number) => moneyIn(n, currency);
  const { period, rows } = reports;
  const view: ReportView = {
    ...reports,
    dollars,
    labels: rows.map((r) => bucketLabel(r.key, period.unit, "axis")),
    query: periodQuery(period),
    per: period.unit === "day" ? "day" : "month",
  };
  return (
    <>
      <Totals view={view} />

      <RevenueReport view={view} />

      <OrdersPaidReport view={view} />

      <NewCustomersReport view={view} />

      <ActiveMembersReport view={view} />

      <ChurnReport view={view} />

      <RevenuePerCustomerReport view={view} />
    </>
  );
}

/** What every report of the page draws from: the period's figures, their axis labels, the CSV query, the unit. */
interface ReportView extends Reports {
  dollars: (n: number) => string;
  labels: string[];
  query: string;
  per: "day" | "month";
}

/** The period's headline figures. */
function Totals({ view }: { view: ReportView }) {
  const { totals, dollars } = view;
  return (
    <dl className="mb-8 grid gap-4 sm:grid-cols-2 xl:grid-cols-3" data-testid="report-totals">
      <Figure
        term="Revenue"
        value={dollars(totals.revenue)}
        note={
          totals.subscriptionRenewals
            ? `${dollars(totals.subscriptionRevenue)} from ${count(totals.subscriptionRenewals)} subscription renewals`
            : undefined
        }
        more={
          totals.discountedOrders
            ? `after ${dollars(totals.discounts)} off with discount codes on ${count(totals.discountedOrders)} ${totals.discountedOrders === 1 ? "order" : "orders"}`
            : undefined
        }
      />
      <Figure
        term="Orders paid"
        value={count(totals.paidOrders)}
        note={totals.givenOrders ? `and ${count(totals.givenOrders)} given by the agency` : undefined}
      />
      <Figure term="New customers" value={count(totals.newCustomers)} note={`${count(totals.renewals)} renewals`} />
      <Figure
        term="Active members"
        value={count(totals.activeAtEnd)}
        note={`${count(totals.activeAtStart)} when the period began`}
      />
      <Figure
        term="Not renewed"
        value={percent(totals.churnRate)}
        note={`${count(totals.notRenewed)} of ${count(totals.renewed + totals.notRenewed)} memberships that ended`}
      />
      <Figure
        term="Revenue per paying customer"
        value={totals.revenuePerPayer === null ? "—" : dollars(totals.revenuePerPayer)}
        note="a month, on average"
      />
    </dl>
  );
}

function RevenueReport({ view }: { view: ReportView }) {
  const { rows, totals, labels, query, per, dollars } = view;
  return (
    <Report name="revenue" query={query} stacked>
      <BarChart
        title={`Revenue by ${per}`}
        desc={`Revenue by ${per}, ${dollars(totals.revenue)} in all: ${dollars(totals.manualRevenue)} from orders placed by hand, ${dollars(totals.subscriptionRevenue)} from subscription renewals. Discounts given: ${dollars(totals.discounts)} on ${count(totals.discountedOrders)} orders with a code.`}
        labels={labels}
        series={[
          { name: "Orders placed by hand", values: rows.map((r) => r.manualRevenue), fill: "fill-clay" },
          { name: "Subscription renewals", values: rows.map((r) => r.subscriptionRevenue), fill: "fill-forest" },
        ]}
        whole={false}
      />
      <PeriodTable
        view={view}
        head={["Revenue", "Subscription renewals", "Orders placed by hand", "Orders with a code", "Discounts given"]}
        cells={(r) => [
          dollars(r.revenue),
          dollars(r.subscriptionRevenue),
          dollars(r.manualRevenue),
          count(r.discountedOrders),
          dollars(r.discounts),
        ]}
        total={[
          dollars(totals.revenue),
          dollars(totals.subscriptionRevenue),
          dollars(totals.manualRevenue),
          count(totals.discountedOrders),
          dollars(totals.discounts),
        ]}
      />
    </Report>
  );
}

function OrdersPaidReport({ view }: { view: ReportView }) {
  const { rows, totals, labels, query, per } = view;
  return (
    <Report name="orders-paid" query={query} stacked>
      <BarChart
        title={`Orders paid by ${per}`}
        desc={`${count(totals.paidOrders)} orders paid (${count(totals.subscriptionRenewals)} subscription renewals, ${count(totals.manualOrders)} placed by hand) and ${count(totals.givenOrders)} memberships given by the agency.`}
        labels={labels}
        series={[
          { name: "Placed by hand", values: rows.map((r) => r.manualOrders), fill: "fill-clay" },
          { name: "Subscription renewals", values: rows.map((r) => r.subscriptionRenewals), fill: "fill-forest" },
          { name: "Given by the agency", values: rows.map((r) => r.givenOrders), fill: "fill-brass" },
        ]}
      />
      <PeriodTable
        view={view}
        head={["Orders paid", "Subscription renewals", "Placed by hand", "Given by the agency"]}
        cells={(r) => [count(r.paidOrders), count(r.subscriptionRenewals), count(r.manualOrders), count(r.givenOrders)]}
        total={[
          count(totals.paidOrders),
          count(totals.subscriptionRenewals),
          count(totals.manualOrders),
          count(totals.givenOrders),
        ]}
      />
    </Report>
  );
}

function NewCustomersReport({ view }: { view: ReportView }) {
  const { rows, totals, labels, query, per } = view;
  return (
    <Report name="new-customers" query={query}>
      <BarChart
        title={`New customers and renewals by ${per}`}
        desc={`${count(totals.newCustomers)} new customers and ${count(totals.renewals)} renewals.`}
        labels={labels}
        series={[
          { name: "New customers", values: rows.map((r) => r.newCustomers), fill: "fill-clay" },
          { name: "Renewals", values: rows.map((r) => r.renewals), fill: "fill-forest" },
        ]}
      />
      <PeriodTable
        view={view}
        head={["New customers", "Renewals"]}
        cells={(r) => [count(r.newCustomers), count(r.renewals)]}
        total={[count(totals.newCustomers), count(totals.renewals)]}
      />
    </Report>
  );
}

function ActiveMembersReport({ view }: { view: ReportView }) {
  const { rows, totals, labels, query, per } = view;
  return (
    <Report name="active-members" query={query}>
      <LineChart
        title={`Active members at the end of each ${per}`}
        desc={`${count(totals.activeAtStart)} active members when the period began, ${count(totals.activeAtEnd)} at its end.`}
        labels={labels}
        values={rows.map((r) => r.activeMembers)}
      />
      <PeriodTable view={view} head={["Active members"]} cells={(r) => [count(r.activeMembers)]} />
    </Report>
  );
}

function ChurnReport({ view }: { view: ReportView }) {
  const { rows, totals, labels, query, per } = view;
  return (
    <Report name="churn" query={query} stacked>
      <BarChart
        title={`Memberships that ended, by ${per}`}
        desc={`${count(totals.ended)} memberships ended: ${count(totals.renewed)} renewed within ${RENEWAL_GRACE_DAYS} days, ${count(totals.notRenewed)} not renewed, ${count(totals.waiting)} may still renew. Not renewed: ${percent(totals.churnRate)}.`}
        labels={labels}
        series={[
          { name: "Not renewed", values: rows.map((r) => r.notRenewed), fill: "fill-clay" },
          {
            name: `Renewed within ${RENEWAL_GRACE_DAYS} days`,
            values: rows.map((r) => r.renewed),
            fill: "fill-forest",
          },
          { name: "May still renew", values: rows.map((r) => r.waiting), fill: "fill-linen" },
        ]}
      />
      <PeriodTable
        view={view}
        head={["Ended", "Renewed", "Not renewed", "May still renew", "Not renewed (%)"]}
        cells={(r) => [count(r.ended), count(r.renewed), count(r.notRenewed), count(r.waiting), percent(r.churnRate)]}
        total={[
          count(totals.ended),
          count(totals.renewed),
          count(totals.notRenewed),
          count(totals.waiting),
          percent(totals.churnRate),
        ]}
      />
    </Report>
  );
}

function RevenuePerCustomerReport({ view }: { view: ReportView }) {
  const { months, totals, query, dollars } = view;
  return (
    <Report name="revenue-per-customer" query={query}>
      <BarChart
        title="Revenue per paying customer by month"
        desc={`Each month's revenue divided by the customers who paid in it; ${totals.revenuePerPayer === null ? "nobody paid" : `${dollars(totals.revenuePerPayer)} on average`}.`}
        labels={months.map((m) => bucketLabel(m.month, "month", "axis"))}
        whole={false}
        series={[
          {
            name: "Revenue per paying customer",
            values: months.map((m) => m.perPayer ?? 0),
            fill: "fill-brass-dark",
          },
        ]}
      />
      <Table
        head={["Month", "Revenue", "Paying customers", "Per paying customer"]}
        rows={months.map((m) => [
          bucketLabel(m.month, "month", "table"),
          dollars(m.revenue),
          count(m.payers),
          m.perPayer === null ? "—" : dollars(m.perPayer),
        ])}
      />
    </Report>
  );
}

function Figure({ term, value, note, more }: { term: string; value: string; note?: string; more?: string }) {
  return (
    <div className="rounded-2xl bg-white p-5 ring-1 ring-linen">
      <dt className="text-sm text-mist">{term}</dt>
      <dd className="mt-1 font-serif text-3xl text-forest">{value}</dd>
      {note ? <dd className="mt-1 text-xs text-mist">{note}</dd> : null}
      {more ? <dd className="mt-0.5 text-xs text-mist">{more}</dd> : null}
    </div>
  );
}

/** One report: its title and rule, its chart and table (passed in), and its CSV for the same period. */
function Report({
  name,
  query,
  stacked,
  children,
}: {
  name: ReportName;
  query: string;
  /** The table under the chart at every width (a table of many columns). */
  stacked?: boolean;
  children: React.ReactNode;
}) {
  const report = REPORTS.find((r) => r.name === name)!;
  const headingId = `report-${name}`;
  return (
    <section
      aria-labelledby={headingId}
      className="mb-8 rounded-2xl bg-white p-5 ring-1 ring-linen sm:p-6"
      data-testid={headingId}
    >
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div>
          <h2 id={headingId} className="font-serif text-xl text-forest">
            {report.title}
          </h2>
          <p className="mt-1 max-w-prose text-sm text-mist">{report.what}</p>
        </div>
        <a href={`/reports/${name}.csv?${query}`} className="btn-outline px-4 py-2 text-xs" download>
          Download CSV<span className="sr-only">: {report.title}</span>
        </a>
      </div>
      <div className={`mt-4 grid gap-6 ${stacked ? "" : "xl:grid-cols-[minmax(0,3fr)_minmax(0,2fr)]"}`}>{children}</div>
    </section>
  );
}

/** A report's table, a row per day or month of the period, and its totals when they add up. */
function PeriodTable({
  view: { per, period, rows },
  head,
  cells,
  total,
}: {
  view: ReportView;
  head: string[];
  cells: (row: Reports["rows"][number]) => string[];
  total?: string[];
}) {
  return (
    <Table
      head={[per === "day" ? "Day" : "Month", ...head]}
      rows={rows.map((r) => [bucketLabel(r.key, period.unit, "table"), ...cells(r)])}
      foot={total ? ["Total", ...total] : undefined}
    />
  );
}

/** The chart's figures as a table (scrolls inside its box on a phone). */
function Table({ head, rows, foot }: { head: string[]; rows: string[][]; foot?: string[] }) {
  return (
    <div
      className="max-h-96 overflow-auto rounded-xl ring-1 ring-linen"
      // A box that scrolls must take the keyboard's focus, or its rows cannot be reached without a mouse.
      // eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex
      tabIndex={0}
      role="region"
      aria-label={`${head.join(", ")}: table`}
    >
      <table className="w-full text-sm">
        <thead className="sticky top-0 bg-sand text-left">
          <tr>
            {head.map((h, i) => (
              <th key={h} scope="col" className={`px-3 py-2 font-semibold text-forest ${i ? "text-right" : ""}`}>
                {h}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={r[0]} className="border-t border-linen">
              {r.map((c, i) =>
                i === 0 ? (
                  <th key={i} scope="row" className="px-3 py-1.5 text-left font-normal whitespace-nowrap">
                    {c}
                  </th>
                ) : (
                  <td key={i} className="px-3 py-1.5 text-right tabular-nums">
                    {c}
                  </td>
                ),
              )}
            </tr>
          ))}
        </tbody>
        {foot ? (
          <tfoot>
            <tr className="border-t-2 border-linen font-semibold">
              {foot.map((c, i) =>
                i === 0 ? (
                  <th key={i} scope="row" className="px-3 py-2 text-left">
                    {c}
                  </th>
                ) : (
                  <td key={i} className="px-3 py-2 text-right tabular-nums">
                    {c}
                  </td>
                ),
              )}
            </tr>
          </tfoot>
        ) : null}
      </table>
    </div>
  );
}
