import { useId, type ReactNode } from "react";
import { HEIGHT, PAD, WIDTH, yScale } from "./chart";

/**
 * What every chart shares: the SVG drawn on the server, an image to assistive technology named by `title` and
 * described by `desc` (the table beside it holds every figure), and the value axis's five grid lines up to `top`.
 * The chart's own marks are its children; `after` goes below the drawing (a legend).
 */
export function ChartFrame({
  title,
  desc,
  top,
  format,
  children,
  after,
}: {
  title: string;
  desc: string;
  top: number;
  format: (n: number) => string;
  children: ReactNode;
  after?: ReactNode;
}) {
  const id = useId();
  const y = yScale(top);
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
        {children}
      </svg>
      {after}
    </figure>
  );
}
