import type { SectionRecord } from "#domain/registry.ts";
import { documentBlocks } from "./document-blocks";
import { PageHeader } from "./PageHeader";
import type { SectionProps } from "./props";

/** The privacy notice and the terms: a title band with the date of the version, then the text (decision 037). */
function LegalDocument({
  record,
  fallbackTitle,
}: {
  record?: SectionRecord<"privacy"> | SectionRecord<"terms">;
  fallbackTitle: string;
}) {
  if (!record) {
    return (
      <PageHeader
        title={fallbackTitle}
        lead="This document is being written. Ask us through the contact page for a copy in the meantime."
      />
    );
  }
  return (
    <>
      <PageHeader title={record.documentHeading} lead={`Last updated ${record.lastUpdated}`} />
      <section className="bg-white">
        <div className="container-page max-w-3xl py-14 text-base leading-relaxed text-ink sm:py-20">
          {documentBlocks(record.documentText).map((block, i) =>
            block.kind === "heading" ? (
              <h2 key={i} className="mt-10 mb-3 font-serif text-2xl text-forest first:mt-0">
                {block.text}
              </h2>
            ) : block.kind === "list" ? (
              <ul key={i} className="my-4 list-disc space-y-2 pl-6">
                {block.items.map((item, j) => (
                  <li key={j}>{item}</li>
                ))}
              </ul>
            ) : (
              <p key={i} className="my-4">
                {block.text}
              </p>
            ),
          )}
        </div>
      </section>
    </>
  );
}

export function PrivacyNotice({ record }: SectionProps<"privacy">) {
  return <LegalDocument record={record} fallbackTitle="Privacy notice" />;
}

export function Terms({ record }: SectionProps<"terms">) {
  return <LegalDocument record={record} fallbackTitle="Terms" />;
}
