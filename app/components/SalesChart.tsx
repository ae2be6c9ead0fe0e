import { moneyIn, useCurrency } from "../lib/money";
import { monthName } from "#domain/dates.ts";

/** Paid sales per month as a server-rendered SVG bar chart: no chart library, readable down to 390 px. */
export function SalesChart({ data }: { data: { month: string; total: number }[] }) {
  const currency = useCurrency();
  const max = Math.max(1, ...data.map((d) => d.total));
  const w = 600;
  const h = 220;
  const pad = { top: 16, bottom: 28, left: 8, right: 8 };
  const bw = (w - pad.left - pad.right) / data.length;
  return (
    <figure>
      <svg
        viewBox={`0 0 ${w} ${h}`}
        role="img"
        aria-label="Paid sales per month over the last 12 months"
        className="h-auto w-full"
      >
        {data.map((d, i) => {
          const bh = ((h - pad.top - pad.bottom) * d.total) / max;
          const x = pad.left + i * bw + bw * 0.18;
          const y = h - pad.bottom - bh;
          return (
            <g key={d.month}>
              <title>{`${d.month}: ${moneyIn(d.total, currency)}`}</title>
              <rect
                x={x}
                y={y}
                width={bw * 0.64}
                height={Math.max(bh, d.total > 0 ? 2 : 0)}
                rx="3"
                className="fill-clay"
              />
              <line x1={x} x2={x + bw * 0.64} y1={h - pad.bottom} y2={h - pad.bottom} className="stroke-linen" />
              <text x={x + bw * 0.32} y={h - 10} textAnchor="middle" className="fill-mist text-[11px]">
                {monthName(d.month)}
              </text>
              {d.total > 0 ? (
                <text x={x + bw * 0.32} y={y - 4} textAnchor="middle" className="fill-forest text-[10px]">
                  {d.total >= 1000 ? `${Math.round(d.total / 100) / 10}k` : Math.round(d.total)}
                </text>
              ) : null}
            </g>
          );
        })}
      </svg>
      <figcaption className="sr-only">
        {data.map((d) => `${d.month}: ${moneyIn(d.total, currency)}`).join("; ")}
      </figcaption>
    </figure>
  );
}
