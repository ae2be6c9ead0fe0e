import { useId } from "react";
import { HEIGHT, labelShown, niceMax, PAD, PLOT_H, PLOT_W, short, WIDTH } from "./chart";

/**
 * One figure over time as a line drawn on the server as SVG, a dot per point. An image to assistive technology, named
 * by `title` and described by `desc`; the table beside it holds every figure.
 */
export function LineChart({
  title,
  desc,
  labels,
  values,
  format = short,
  whole = true,
}: {
  title: string;
  desc: string;
  labels: string[];
  values: number[];
  format?: (n: number) => string;
  /** Counts (the default): the axis steps by whole numbers. */
  whole?: boolean;
}) {
  const id = useId();
  const top = niceMax(Math.max(0, ...values), whole);
  const slot = PLOT_W / Math.max(1, labels.length);
  const x = (i: number) => PAD.left + i * slot + slot / 2;
  const y = (v: number) => PAD.top + PLOT_H - (PLOT_H * Math.max(0, v)) / top;
  const points = values.map((v, i) => `${x(i)},${y(v)}`).join(" ");
  return (
    <figure>
      <svg
        viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
        role="img"
        aria-labelledby={`${id}-t ${id}-d`}
        className="h-auto w-full max-w-2xl"
      >
        <title id={`${id}-t`}>{title}</title>
        <desc id={`${id}-d`}>{desc}</desc>
        {[0, 1, 2, 3, 4].map((k) => (
          <g key={k}>
            <line
              x1={PAD.left}
              x2={WIDTH - PAD.right}
              y1={y((top * k) / 4)}
              y2={y((top * k) / 4)}
              className="stroke-linen"
            />
            <text x={PAD.left - 6} y={y((top * k) / 4) + 4} textAnchor="end" className="fill-mist text-[13px]">
              {format((top * k) / 4)}
            </text>
          </g>
        ))}
        {values.length > 1 ? (
          <polyline points={points} fill="none" strokeWidth="2.5" className="stroke-forest" />
        ) : null}
        {values.map((v, i) => (
          <circle key={labels[i]} cx={x(i)} cy={y(v)} r={values.length > 40 ? 2 : 3.5} className="fill-clay" />
        ))}
        {labels.map((label, i) =>
          labelShown(i, labels.length) ? (
            <text key={label} x={x(i)} y={HEIGHT - 10} textAnchor="middle" className="fill-mist text-[13px]">
              {label}
            </text>
          ) : null,
        )}
      </svg>
    </figure>
  );
}
