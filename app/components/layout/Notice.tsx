import type { ReactNode } from "react";
import { AlertIcon, CheckIcon } from "../StrokeIcon";

/**
 * A page that says one thing (the newsletter's confirm and unsubscribe pages): an icon, a heading, a sentence or two,
 * and what to do next, centred on the site's sand background like the thank-you page.
 */
export function Notice({
  tone,
  title,
  children,
  testId,
}: {
  tone: "done" | "ask" | "problem";
  title: string;
  children: ReactNode;
  testId?: string;
}) {
  const icon =
    tone === "problem" ? (
      <span
        className="inline-flex h-16 w-16 items-center justify-center rounded-full bg-clay text-white"
        aria-hidden="true"
      >
        <AlertIcon size={30} />
      </span>
    ) : (
      <span
        className={`inline-flex h-16 w-16 items-center justify-center rounded-full ${tone === "done" ? "bg-forest" : "bg-brass"} text-white`}
        aria-hidden="true"
      >
        {tone === "done" ? <CheckIcon size={30} /> : <span className="font-serif text-3xl leading-none">@</span>}
      </span>
    );
  return (
    <section className="bg-sand" data-testid={testId}>
      <div className="container-page flex flex-col items-center py-24 text-center sm:py-28">
        {icon}
        <h1 className="mt-6 text-3xl text-forest sm:text-5xl">{title}</h1>
        <div className="section-lead mx-auto max-w-xl space-y-3 break-words">{children}</div>
      </div>
    </section>
  );
}
