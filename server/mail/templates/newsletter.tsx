import { render, toPlainText } from "@react-email/render";
import type { Brand } from "../brand";
import { Cta, Layout, Small } from "./Layout";

/** Where each recipient's own unsubscribe link goes in a newsletter drawn once for many (replaced per recipient). */
export const UNSUBSCRIBE_PLACEHOLDER = "https://unsubscribe.invalid/newsletter-recipient";

/** What one variant of a newsletter (for members, or for everyone else) says. */
export interface NewsletterMailContent {
  subject: string;
  preview: string;
  heading: string;
  /** Cleaned HTML, links and images absolute (what this recipient may read: the members-only part left out or not). */
  bodyHtml: string;
  /** The article on the site, and whether part of it was left out of this mail (then the button says so). */
  readMore?: { url: string; locked: boolean };
}

/**
 * A newsletter in the site's mail layout, HTML and its plain text: drawn once per variant, then given each recipient's
 * unsubscribe link (UNSUBSCRIBE_PLACEHOLDER). Readable without images: every image keeps its alternative text, and the
 * text part is the same words.
 */
export async function renderNewsletter(
  content: NewsletterMailContent,
  brand: Brand,
): Promise<{ subject: string; html: string; text: string }> {
  const html = await render(
    <Layout
      brand={brand}
      preview={content.preview || content.subject}
      heading={content.heading}
      footnote={
        <>
          You receive this because you subscribed to, bought from or are a member of {brand.name}.{" "}
          <a href={UNSUBSCRIBE_PLACEHOLDER} style={{ color: "inherit" }}>
            Unsubscribe
          </a>
          .
        </>
      }
    >
      <div style={{ fontSize: "16px", lineHeight: "1.6" }} dangerouslySetInnerHTML={{ __html: content.bodyHtml }} />
      {content.readMore ? (
        <>
          {content.readMore.locked ? <Small>The rest of this article is for members.</Small> : null}
          <Cta href={content.readMore.url}>Read it on the site</Cta>
        </>
      ) : null}
    </Layout>,
  );
  return { subject: content.subject, html, text: toPlainText(html) };
}
