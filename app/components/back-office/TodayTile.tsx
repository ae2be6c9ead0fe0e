import { Link } from "react-router";

/**
 * One figure of the Today page: the number, what it counts, a line of context and the link to the list behind it
 * (the whole tile is that link). `urgent` marks something waiting for the studio.
 */
export function TodayTile({
  figure,
  label,
  note,
  to,
  link,
  urgent = false,
  testId,
}: {
  figure: string;
  label: string;
  note: string;
  to: string;
  link: string;
  urgent?: boolean;
  testId: string;
}) {
  return (
    <Link
      to={to}
      data-testid={testId}
      className={`group flex flex-col rounded-2xl bg-white p-5 ring-1 transition-shadow hover:shadow-md focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-clay ${urgent ? "ring-clay/50" : "ring-linen"}`}
    >
      <span className={`font-serif text-4xl tabular-nums ${urgent ? "text-clay" : "text-forest"}`} data-figure>
        {figure}
      </span>
      <span className="mt-1 font-semibold text-ink">{label}</span>
      <span className="mt-1 text-sm text-mist">{note}</span>
      <span className="mt-auto pt-4 text-sm font-semibold text-clay group-hover:underline">
        {link} <span aria-hidden="true">→</span>
      </span>
    </Link>
  );
}
