import { isRouteErrorResponse, Link } from "react-router";
import { NO_PERMISSION } from "#domain/refusal.ts";

/** The status of a failed page, its title and a sentence for a person. */
export function describeError(error: unknown) {
  const status = isRouteErrorResponse(error) ? error.status : 500;
  // A failure of ours names its request (server/http/page-errors.ts), so that the log line can be found from the page.
  const data: unknown = isRouteErrorResponse(error) ? error.data : undefined;
  const reference =
    status >= 500 && data && typeof data === "object" && "reference" in data && typeof data.reference === "string"
      ? data.reference
      : undefined;
  const title = status === 404 ? "Page not found" : status === 403 ? NO_PERMISSION : "Something went wrong";
  const text =
    status === 404
      ? "The page you asked for does not exist or has moved."
      : status === 403
        ? "Your account cannot open this page."
        : "We could not show this page. Please try again in a moment.";
  return { status, title, text, reference };
}

const PUBLIC_WAYS = [
  { to: "/", label: "Back Home" },
  { to: "/contact", label: "Contact Us" },
];

/** What a person sees for a page that failed: its status, a sentence, and the ways on (root and route boundaries). */
export function ErrorPanel({
  error,
  refusal,
  ways = PUBLIC_WAYS,
}: {
  error: unknown;
  /** The 403's sentence, when the reader is known (the back office names the staff member's role). */
  refusal?: string;
  /** The links on: the public site's by default, the back office's own there. */
  ways?: { to: string; label: string }[];
}) {
  const described = describeError(error);
  const { status, title, reference } = described;
  const text = status === 403 && refusal ? refusal : described.text;
  return (
    <div className="container-page w-full py-24 text-center">
      <p className="eyebrow">Error {status}</p>
      <h1 className="section-title">{title}</h1>
      <p className="section-lead mx-auto max-w-xl">{text}</p>
      {reference ? (
        <p className="mt-4 text-sm text-ink/80" data-testid="error-reference">
          Reference: <code className="select-all">{reference}</code>
        </p>
      ) : null}
      <div className="mt-8 flex justify-center gap-3">
        {ways.map((way, i) => (
          <Link key={way.to} to={way.to} className={i === 0 ? "btn-primary" : "btn-outline"}>
            {way.label}
          </Link>
        ))}
      </div>
    </div>
  );
}
