import { Link } from "react-router";
import type { Route } from "./+types/today";
import { TodayTile } from "#app/components/back-office/TodayTile.tsx";
import { requireStaffHome } from "#app/lib/guards.server.ts";
import { filtersHref } from "#domain/order-filter-keys.ts";
import { formatDate, longDate } from "#domain/dates.ts";
import { count } from "#domain/format.ts";
import { moneyIn, useCurrency } from "#app/lib/money.ts";
import { AdminHeader } from "#app/components/admin/AdminHeader.tsx";

/** The customers list's "ending soon" view (app/routes/admin/customers.tsx, domain/customers.ts STATE_FILTERS). */
export const ENDING_SOON_HREF = "/customers?state=ending-soon";

export async function loader({ request, context }: Route.LoaderArgs) {
  const viewer = await requireStaffHome(request, context);
  const now = context.services.now();
  const summary = await context.services.backOffice.today(viewer.staffRole);
  return { ...summary, now: now.toISOString(), timeZone: context.config.timeZone };
}

export const meta: Route.MetaFunction = () => [{ title: "Today" }, { name: "robots", content: "noindex" }];

/** A count as people read it: "12", or "100+" past the cap. */
const shown = (c: { total: number; capped: boolean }) => `${count(c.total)}${c.capped ? "+" : ""}`;

/**
 * The back office's home: what needs doing (orders to deliver, unread messages, memberships about to end, failed
 * mails or jobs) and what came in (today's and this month's sales, in the site's time zone), each a link to its list.
 */
export default function Today({ loaderData: data }: Route.ComponentProps) {
  const { endingSoon, sales, timeZone } = data;
  return (
    <>
      <AdminHeader title="Today" lead={formatDate(data.now, timeZone, "long")} />
      <h2 className="sr-only">To do</h2>
      <ToDo data={data} />

      {data.failingWebhooks?.length ? <FailingWebhooks webhooks={data.failingWebhooks} timeZone={timeZone} /> : null}

      {sales ? <Sales data={data} sales={sales} /> : null}

      {endingSoon && endingSoon.first.length ? <EndingSoonest endingSoon={endingSoon} timeZone={timeZone} /> : null}
    </>
  );
}

type TodayData = Route.ComponentProps["loaderData"];

/** What needs doing: one tile per list the viewer may open. */
function ToDo({ data }: { data: TodayData }) {
  const { toDeliver, unread, endingSoon, failedJobs } = data;
  return (
    <div className="grid gap-4 sm:grid-cols-2 xl:grid-cols-4" data-testid="today-to-do">
      {toDeliver ? (
        <TodayTile
          testId="today-to-deliver"
          figure={shown(toDeliver)}
          label={toDeliver.total === 1 ? "Order to deliver" : "Orders to deliver"}
          note="Paid, waiting for you to start the membership."
          to={filtersHref("/total-orders", { view: "to-deliver" })}
          link="Deliver orders"
          urgent={toDeliver.total > 0}
        />
      ) : null}
      {unread ? (
        <TodayTile
          testId="today-unread"
          figure={shown(unread)}
          label={unread.total === 1 ? "Unread message" : "Unread messages"}
          note="From the contact form."
          to="/all-messages"
          link="Read messages"
          urgent={unread.total > 0}
        />
      ) : null}
      {endingSoon ? (
        <TodayTile
          testId="today-ending-soon"
          figure={shown(endingSoon)}
          label={endingSoon.total === 1 ? "Membership ending" : "Memberships ending"}
          note="In the next 7 days, not renewed yet."
          to={ENDING_SOON_HREF}
          link="See these customers"
        />
      ) : null}
      {failedJobs ? (
        <TodayTile
          testId="today-failed-jobs"
          figure={shown(failedJobs)}
          label={failedJobs.total === 1 ? "Failed mail or job" : "Failed mails or jobs"}
          note={failedJobs.total > 0 ? "Retried and given up: check the reason." : "Everything went out."}
          to="/background-jobs"
          link="Open background jobs"
          urgent={failedJobs.total > 0}
        />
      ) : null}
    </div>
  );
}

function FailingWebhooks({
  webhooks,
  timeZone,
}: {
  webhooks: NonNullable<TodayData["failingWebhooks"]>;
  timeZone: string;
}) {
  return (
    <section
      aria-labelledby="webhooks-heading"
      className="mt-10 rounded-2xl bg-white ring-1 ring-red-200"
      data-testid="today-failing-webhooks"
    >
      <h2 id="webhooks-heading" className="border-b border-linen px-5 py-4 font-serif text-lg text-forest">
        {webhooks.length === 1 ? "A webhook endpoint is failing" : "Webhook endpoints are failing"}
      </h2>
      <ul className="divide-y divide-linen">
        {webhooks.map((e) => (
          <li key={e.id} className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1 px-5 py-3">
            <Link to={`/webhooks/${e.id}`} className="min-w-0 font-medium break-all text-forest hover:text-clay">
              {e.description || e.url}
            </Link>
            <span className="text-sm whitespace-nowrap text-ink/80">
              Deliveries failing since {longDate(e.failingSince, timeZone)}
              {e.state === "paused" ? " (paused)" : e.state === "disabled" ? " (disabled)" : ""}
            </span>
          </li>
        ))}
      </ul>
    </section>
  );
}

/** Today's and this month's sales, each a link to its paid orders. */
function Sales({ data, sales }: { data: TodayData; sales: NonNullable<TodayData["sales"]> }) {
  const { timeZone } = data;
  const currency = useCurrency();
  const todayOnly = { payment: "Paid", from: data.day, to: data.day } as const;
  const thisMonth = { payment: "Paid", from: data.monthStart, to: data.day } as const;
  return (
    <>
      <h2 className="mt-10 font-serif text-xl text-forest">Sales</h2>
      <div className="mt-4 grid gap-4 sm:grid-cols-2" data-testid="today-sales">
        <TodayTile
          testId="today-sales-day"
          figure={moneyIn(sales.today, currency)}
          label="Received today"
          note={`${count(sales.paidToday)} ${sales.paidToday === 1 ? "payment" : "payments"} on ${longDate(data.now, timeZone)}.${
            sales.givenToday
              ? ` ${count(sales.givenToday)} ${sales.givenToday === 1 ? "membership" : "memberships"} given by the studio.`
              : ""
          }`}
          to={filtersHref("/total-orders", todayOnly)}
          link="Paid orders placed today"
        />
        <TodayTile
          testId="today-sales-month"
          figure={moneyIn(sales.month, currency)}
          label="Received this month"
          note={`Since ${longDate(`${data.monthStart}T12:00:00Z`, "UTC")}.`}
          to={filtersHref("/total-orders", thisMonth)}
          link="Paid orders placed this month"
        />
      </div>
    </>
  );
}

function EndingSoonest({
  endingSoon,
  timeZone,
}: {
  endingSoon: NonNullable<TodayData["endingSoon"]>;
  timeZone: string;
}) {
  return (
    <section aria-labelledby="ending-heading" className="mt-10 rounded-2xl bg-white ring-1 ring-linen">
      <h2 id="ending-heading" className="border-b border-linen px-5 py-4 font-serif text-lg text-forest">
        Ending soonest
      </h2>
      <ul className="divide-y divide-linen" data-testid="today-ending-list">
        {endingSoon.first.map((m) => (
          <li key={m.userId} className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1 px-5 py-3">
            <span className="min-w-0">
              <span className="block font-medium text-ink">{m.customerName}</span>
              <span className="text-xs break-all text-mist">{m.customerEmail}</span>
            </span>
            <span className="text-sm whitespace-nowrap text-ink/80">Ends {longDate(m.endsAt, timeZone)}</span>
          </li>
        ))}
      </ul>
      {endingSoon.total > endingSoon.first.length ? (
        <p className="border-t border-linen px-5 py-3 text-sm">
          <Link to={ENDING_SOON_HREF} className="font-semibold text-clay hover:underline">
            All {shown(endingSoon)} memberships ending this week →
          </Link>
        </p>
      ) : null}
    </section>
  );
}
