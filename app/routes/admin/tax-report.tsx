import { Form } from "react-router";
import type { Route } from "./+types/tax-report";
import { FormAlert } from "#app/components/FormAlert.tsx";
import { TextField } from "#app/components/forms.tsx";
import { requireStaff } from "#app/lib/guards.server.ts";
import { count } from "#domain/format.ts";
import { rateText } from "#domain/tax.ts";
import {
  money,
  periodChoices,
  periodLabel,
  TREATMENT_LABEL,
  type TaxCurrencySection,
  type TaxFigures,
  type TaxPeriod,
  type TaxReport,
} from "#domain/tax-report.ts";
import { AdminHeader } from "#app/components/admin/AdminHeader.tsx";
import { DayRangeForm, ReportPeriod, ReportTabs, ShowButton } from "#app/components/admin/ReportPeriod.tsx";

/**
 * The tax report (issue 35, part 6): a month (?period=2026-11), a quarter (?period=2026-Q4) or the site's days
 * (?from=&to=); this quarter when none is asked. Read from the tax tallies (server/services/tax-report.ts).
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  await requireStaff(request, context, "reports");
  const q = new URL(request.url).searchParams;
  const input = {
    period: q.get("period") ?? undefined,
    from: q.get("from") ?? undefined,
    to: q.get("to") ?? undefined,
  };
  const { taxReport } = context.services;
  const choices = periodChoices(taxReport.today());
  const period = taxReport.period(input);
  if (!period.ok) return { report: null, errors: period.errors, input, choices };
  return { report: await taxReport.of(period.data), errors: [], input, choices };
}

export const meta: Route.MetaFunction = () => [{ title: "Tax report" }, { name: "robots", content: "noindex" }];

/** The period's query string, for the CSV link. */
const periodQuery = (p: TaxPeriod) =>
  p.value
    ? `period=${encodeURIComponent(p.value)}`
    : `from=${encodeURIComponent(p.from)}&to=${encodeURIComponent(p.to)}`;

const text = (v: unknown) => (typeof v === "string" ? v : "");

export default function TaxReportPage({ loaderData: { report, errors, input, choices } }: Route.ComponentProps) {
  const error = (field: string) => errors.find((e) => e.field === field)?.message;
  const period = report?.period;
  return (
    <>
      <AdminHeader title="Reports" lead={period ? `Tax: ${periodLabel(period)}` : "Choose a period."} />
      <ReportTabs active="tax" />
      <ReportPeriod
        id="tax-period-heading"
        presets={choices}
        current={period?.value}
        note={
          <>
            Days are the studio&rsquo;s calendar days. A sale counts on its invoice&rsquo;s date and a refund on its
            credit note&rsquo;s date. A period can be up to 5 years long.
          </>
        }
      >
        <div className="mt-4 grid gap-6 lg:grid-cols-2">
          <Form method="get" className="grid gap-3 sm:grid-cols-[minmax(0,14rem)_auto] sm:items-start">
            <TextField
              label="Month or quarter"
              name="period"
              placeholder="2026-11 or 2026-Q4"
              defaultValue={period?.value ?? text(input.period)}
              error={error("period")}
            />
            <ShowButton />
          </Form>
          <DayRangeForm
            className="grid gap-3 sm:grid-cols-[repeat(2,minmax(0,12rem))_auto] sm:items-start"
            from={period?.kind === "custom" ? period.from : text(input.from)}
            to={period?.kind === "custom" ? period.to : text(input.to)}
            errors={{ from: error("from"), to: error("to") }}
          />
        </div>
      </ReportPeriod>
      {errors.length && !error("period") && !error("from") && !error("to") ? (
        <FormAlert>{errors.map((e) => e.message).join(" ")}</FormAlert>
      ) : null}
      {report ? <TaxSections report={report} /> : null}
    </>
  );
}

function TaxSections({ report }: { report: TaxReport }) {
  const csv = `/reports/tax.csv?${periodQuery(report.period)}`;
  return (
    <section aria-labelledby="tax-heading" className="mb-8 rounded-2xl bg-white p-5 ring-1 ring-linen sm:p-6">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div>
          <h2 id="tax-heading" className="font-serif text-xl text-forest">
            Tax
          </h2>
          <p className="mt-1 max-w-prose text-sm text-mist">
            Sales invoiced and credit notes issued, by the country whose VAT was charged (else the buyer&rsquo;s), the
            way each sale was taxed and its rate. An invoice stays a sale after a refund or a payment set back to
            unpaid: a credit note is what takes it back. Each currency has its own figures.
          </p>
        </div>
        <a href={csv} className="btn-outline px-4 py-2 text-xs" download>
          Download CSV<span className="sr-only">: Tax</span>
        </a>
      </div>
      {report.currencies.length === 0 ? (
        <p className="mt-6 text-sm text-ink/80">No invoice or credit note was issued in this period.</p>
      ) : (
        report.currencies.map((c) => <CurrencySection key={c.currency} section={c} />)
      )}
    </section>
  );
}

function CurrencySection({ section }: { section: TaxCurrencySection }) {
  const { currency, lines, treatments, total, oss, ossTotal } = section;
  const m = (cents: number) => money(cents, currency);
  const figures = (f: TaxFigures) => [
    count(f.sales),
    m(f.netCents),
    m(f.taxCents),
    count(f.refunds),
    m(f.refundedNetCents),
    m(f.refundedTaxCents),
  ];
  return (
    <div className="mt-6" data-testid={`tax-${currency}`}>
      <h3 className="font-serif text-lg text-forest">{`In ${currency}`}</h3>
      <dl className="mt-3 grid gap-4 sm:grid-cols-2 xl:grid-cols-4">
        <Figure
          term="Net sales"
          value={m(total.netCents)}
          note={`${count(total.sales)} ${total.sales === 1 ? "invoice" : "invoices"}`}
        />
        <Figure term="VAT charged" value={m(total.taxCents)} />
        <Figure
          term="VAT refunded"
          value={m(total.refundedTaxCents)}
          note={`${count(total.refunds)} ${total.refunds === 1 ? "credit note" : "credit notes"}, ${m(total.refundedNetCents)} net`}
        />
        <Figure term="VAT after refunds" value={m(total.taxCents - total.refundedTaxCents)} />
      </dl>
      <Table
        caption={`Sales and credit notes by country, in ${currency}`}
        words={2}
        head={[
          "Country",
          "Treatment",
          "Rate",
          "Sales",
          "Net sales",
          "VAT charged",
          "Credit notes",
          "Net refunded",
          "VAT refunded",
        ]}
        rows={lines.map((l) => [l.countryName, TREATMENT_LABEL[l.treatment], rateText(l.rate), ...figures(l)])}
        foot={[
          ...treatments.map((t) => [TREATMENT_LABEL[t.treatment], "", "", ...figures(t)]),
          ["Total", "", "", ...figures(total)],
        ]}
      />
      <h4 className="mt-6 font-semibold text-forest">{`EU consumers (OSS), in ${currency}`}</h4>
      {oss.length === 0 ? (
        <p className="mt-2 text-sm text-ink/80">No sale to an EU consumer was taxed through the One Stop Shop.</p>
      ) : (
        <Table
          caption={`EU consumers (OSS) by member state and rate, in ${currency}`}
          head={["Member state", "Rate", "Net sales", "VAT charged", "Net refunded", "VAT refunded", "VAT due"]}
          rows={oss.map((l) => [
            l.countryName,
            rateText(l.rate),
            m(l.netCents),
            m(l.taxCents),
            m(l.refundedNetCents),
            m(l.refundedTaxCents),
            m(l.taxCents - l.refundedTaxCents),
          ])}
          foot={[
            [
              "Total",
              "",
              m(ossTotal.netCents),
              m(ossTotal.taxCents),
              m(ossTotal.refundedNetCents),
              m(ossTotal.refundedTaxCents),
              m(ossTotal.taxCents - ossTotal.refundedTaxCents),
            ],
          ]}
        />
      )}
    </div>
  );
}

function Figure({ term, value, note }: { term: string; value: string; note?: string }) {
  return (
    <div className="rounded-2xl bg-white p-5 ring-1 ring-linen">
      <dt className="text-sm text-mist">{term}</dt>
      <dd className="mt-1 font-serif text-3xl text-forest">{value}</dd>
      {note ? <dd className="mt-1 text-xs text-mist">{note}</dd> : null}
    </div>
  );
}

/**
 * A table of figures, its first column naming each row and the next `words - 1` columns words (left-aligned like it),
 * the figures right-aligned (scrolls inside its box on a phone).
 */
function Table({
  caption,
  head,
  rows,
  foot,
  words = 1,
}: {
  caption: string;
  head: string[];
  rows: string[][];
  foot: string[][];
  words?: number;
}) {
  const cells = (r: string[], strong: boolean) =>
    r.map((c, i) =>
      i === 0 ? (
        <th key={i} scope="row" className={`px-3 py-1.5 text-left whitespace-nowrap ${strong ? "" : "font-normal"}`}>
          {c}
        </th>
      ) : (
        <td key={i} className={`px-3 py-1.5 whitespace-nowrap ${i < words ? "text-left" : "text-right tabular-nums"}`}>
          {c}
        </td>
      ),
    );
  return (
    <div
      className="mt-4 overflow-auto rounded-xl ring-1 ring-linen"
      // A box that scrolls must take the keyboard's focus, or its rows cannot be reached without a mouse.
      // eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex
      tabIndex={0}
      role="region"
      aria-label={`${caption}: table`}
    >
      <table className="w-full text-sm">
        <caption className="sr-only">{caption}</caption>
        <thead className="bg-sand text-left">
          <tr>
            {head.map((h, i) => (
              <th
                key={h}
                scope="col"
                className={`px-3 py-2 font-semibold text-forest ${i < words ? "" : "text-right"}`}
              >
                {h}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((r, i) => (
            <tr key={i} className="border-t border-linen">
              {cells(r, false)}
            </tr>
          ))}
        </tbody>
        <tfoot>
          {foot.map((r, i) => (
            <tr key={i} className={`font-semibold ${i === 0 ? "border-t-2" : "border-t"} border-linen`}>
              {cells(r, true)}
            </tr>
          ))}
        </tfoot>
      </table>
    </div>
  );
}
