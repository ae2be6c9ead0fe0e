/** What the charts share: the drawing's size, a scale with round steps, and which labels fit under the bars. */

export const WIDTH = 520;
export const HEIGHT = 230;
export const PAD = { top: 14, right: 24, bottom: 32, left: 46 };
export const PLOT_W = WIDTH - PAD.left - PAD.right;
export const PLOT_H = HEIGHT - PAD.top - PAD.bottom;

/**
 * A top of the scale at or above `max` that splits into 4 round steps (1, 2, 2.5 or 5 times a power of ten); for
 * counts (`whole`), steps of at least 1, so no axis reads 0.5 orders.
 */
export function niceMax(max: number, whole = false): number {
  if (max <= 0) return 4;
  const step = whole ? Math.max(1, max / 4) : max / 4;
  const power = 10 ** Math.floor(Math.log10(step));
  const nice = [1, 2, 2.5, 5, 10].map((m) => m * power).find((s) => s >= step) ?? 10 * power;
  return nice * 4;
}

/** Whether the x label at `i` of `count` is written: every one when they fit, else every n-th counted from the last. */
export function labelShown(i: number, count: number, room = 12): boolean {
  return (count - 1 - i) % Math.max(1, Math.ceil(count / room)) === 0;
}

/** A figure on an axis: 1.2k, 34, 0.5. */
export function short(n: number): string {
  if (Math.abs(n) >= 1000) return `${Math.round(n / 100) / 10}k`;
  return Number.isInteger(n) ? String(n) : n.toFixed(1);
}

/** The vertical position of a value on an axis that reaches `top` (negative values sit on the axis). */
export function yScale(top: number): (v: number) => number {
  return (v) => PAD.top + PLOT_H - (PLOT_H * Math.max(0, v)) / top;
}
