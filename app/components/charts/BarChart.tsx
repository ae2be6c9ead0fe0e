import { ChartFrame } from "./ChartFrame";
import { HEIGHT, labelShown, niceMax, PAD, PLOT_W, short, yScale } from "./chart";

export interface Series {
  name: string;
  values: number[];
  /** The bar's fill: a Tailwind fill class of the palette. */
  fill: string;
}

/**
 * Bars drawn on the server as SVG (no chart library): one bar per label, the series stacked. An image to assistive
 * technology, named by `title` and described by `desc`; the table beside it holds every figure.
 */
export function BarChart({
  title,
  desc,
  labels,
  series,
  format = short,
  whole = true,
}: {
  title: string;
  desc: string;
  labels: string[];
  series: Series[];
  format?: (n: number) => string;
  /** Counts (the default): the axis steps by whole numbers. */
  whole?: boolean;
}) {
  const totals = labels.map((_, i) => series.reduce((s, x) => s + Math.max(0, x.values[i] ?? 0), 0));
  const top = niceMax(Math.max(0, ...totals), whole);
  const slot = PLOT_W / Math.max(1, labels.length);
  const bar = Math.min(slot * 0.7, 48);
  const y = yScale(top);
  return (
    <ChartFrame
      title={title}
      desc={desc}
      top={top}
      format={format}
      after={series.length > 1 ? <Legend series={series} /> : null}
    >
      {labels.map((label, i) => {
        const x = PAD.left + i * slot + (slot - bar) / 2;
        let base = 0;
        return (
          <g key={label}>
            {series.map((s) => {
              const v = Math.max(0, s.values[i] ?? 0);
              const rect = (
                <rect
                  key={s.name}
                  x={x}
                  y={y(base + v)}
                  width={bar}
                  height={y(base) - y(base + v)}
                  className={s.fill}
                />
              );
              base += v;
              return v > 0 ? rect : null;
            })}
            {labelShown(i, labels.length) ? (
              <text x={x + bar / 2} y={HEIGHT - 10} textAnchor="middle" className="fill-mist text-[13px]">
                {label}
              </text>
            ) : null}
          </g>
        );
      })}
    </ChartFrame>
  );
}

/** The series' names beside their colours (shown to everyone; the chart's description names them too). */
export function Legend({ series }: { series: Pick<Series, "name" | "fill">[] }) {
  return (
    <figcaption className="mt-2 flex flex-wrap gap-x-5 gap-y-1 text-xs text-mist">
      {series.map((s) => (
        <span key={s.name} className="inline-flex items-center gap-1.5">
          <svg width="12" height="12" aria-hidden="true">
            <rect width="12" height="12" rx="2" className={s.fill} />
          </svg>
          {s.name}
        </span>
      ))}
    </figcaption>
  );
}
