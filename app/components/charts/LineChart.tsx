import { ChartFrame } from "./ChartFrame";
import { HEIGHT, labelShown, niceMax, PAD, PLOT_W, short, yScale } from "./chart";

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
  const top = niceMax(Math.max(0, ...values), whole);
  const slot = PLOT_W / Math.max(1, labels.length);
  const x = (i: number) => PAD.left + i * slot + slot / 2;
  const y = yScale(top);
  const points = values.map((v, i) => `${x(i)},${y(v)}`).join(" ");
  return (
    <ChartFrame title={title} desc={desc} top={top} format={format}>
      {values.length > 1 ? <polyline points={points} fill="none" strokeWidth="2.5" className="stroke-forest" /> : null}
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
    </ChartFrame>
  );
}
