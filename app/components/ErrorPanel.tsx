import { isRouteErrorResponse, Link } from "react-router";

/** The status of a failed page, its title and a sentence for a person. */
export function describeError(error: unknown) {
  const status = isRouteErrorResponse(error) ? error.status : 500;
  // A failure of ours names its request (server/http/page-errors.ts), so that the log line can be found from the page.
  const data: unknown = isRouteErrorResponse(error) ? error.data : undefined;
  const reference =
    status >= 500 && data && typeof data === "object" && "reference" in data && typeof data.reference === "string"
      ? data.reference
      : undefined;
  const title =
    status === 404 ? "Page not found" : status === 403 ? "You don't have any permission" : "Something went wrong";
  const text =
    status === 404
      ? "The page you asked for does not exist or has moved."
      : status === 403
        ? "Your account cannot open this page."
        : "We could not show this page. Please try again in a moment.";
  return { status, title, text, reference };
}

/** What a person sees for a page that failed: its status, a sentence, and the ways on (root and route boundaries). */
export function ErrorPanel({ error }: { error: unknown }) {
  const { status, title, text, reference } = describeError(error);
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
        <Link to="/" className="btn-primary">
          Back Home
        </Link>
        <Link to="/contact" className="btn-outline">
          Contact Us
        </Link>
      </div>
    </div>
  );
}
