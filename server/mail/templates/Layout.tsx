import {
  Body,
  Button,
  Container,
  Head,
  Heading,
  Hr,
  Html,
  Img,
  Link,
  Preview,
  Section,
  Text,
} from "@react-email/components";
import { Fragment, type ReactNode } from "react";
import type { Brand } from "../brand";

/** The site's palette and type (app/app.css), with the fallbacks mail clients that ignore web fonts use. */
export const LOOK = {
  ink: "#23262b",
  forest: "#1f3d36",
  sand: "#f5efe6",
  linen: "#e8dccb",
  brass: "#c9a27e",
  clay: "#a9522c",
  mist: "#62666f",
  serif: '"Fraunces", Georgia, "Times New Roman", serif',
  sans: '"Inter", "Helvetica Neue", Arial, sans-serif',
} as const;

/** Every mail's frame: the logo (or the agency's name), a heading, the content, and the agency's name and address. */
export function Layout({
  brand,
  preview,
  heading,
  children,
  footnote,
}: {
  brand: Brand;
  preview: string;
  heading: string;
  children: ReactNode;
  /** Why the person receives this mail, under the address. */
  footnote?: ReactNode;
}) {
  const contact = [brand.location, brand.phone, brand.email].filter(Boolean).join(" · ");
  return (
    <Html lang="en">
      <Head />
      <Preview>{preview}</Preview>
      <Body
        style={{ backgroundColor: LOOK.sand, color: LOOK.ink, fontFamily: LOOK.sans, margin: 0, padding: "24px 0" }}
      >
        <Container style={{ maxWidth: "560px", margin: "0 auto", padding: "0 12px" }}>
          <Section
            style={{
              backgroundColor: "#ffffff",
              borderRadius: "16px 16px 0 0",
              borderBottom: `3px solid ${LOOK.forest}`,
              padding: "20px 32px",
            }}
          >
            {/* Not a link: the plain text would start with the site's address. */}
            {/* The PNG, never the site's SVG, which Gmail and Outlook do not show; its size in attributes for Outlook. */}
            {brand.mailLogo ? (
              <Img
                src={brand.mailLogo.url}
                alt={brand.name}
                width={String(brand.mailLogo.width)}
                height={String(brand.mailLogo.height)}
                style={{ display: "block", width: `${brand.mailLogo.width}px`, height: `${brand.mailLogo.height}px` }}
              />
            ) : (
              <Text style={{ color: LOOK.forest, fontFamily: LOOK.serif, fontSize: "22px", margin: 0 }}>
                {brand.name}
              </Text>
            )}
          </Section>
          <Section style={{ backgroundColor: "#ffffff", borderRadius: "0 0 16px 16px", padding: "8px 32px 28px" }}>
            <Heading
              as="h1"
              style={{
                color: LOOK.forest,
                fontFamily: LOOK.serif,
                fontSize: "26px",
                fontWeight: 500,
                lineHeight: "1.25",
              }}
            >
              {heading}
            </Heading>
            {children}
          </Section>
          <Section style={{ padding: "16px 32px" }}>
            <Text style={{ color: LOOK.mist, fontSize: "12px", lineHeight: "1.6", margin: 0 }}>
              {brand.name}
              {contact ? ` · ${contact}` : ""}
            </Text>
            {footnote ? (
              <Text style={{ color: LOOK.mist, fontSize: "12px", lineHeight: "1.6", margin: "6px 0 0" }}>
                {footnote}
              </Text>
            ) : null}
          </Section>
        </Container>
      </Body>
    </Html>
  );
}

export function P({ children }: { children: ReactNode }) {
  return <Text style={{ fontSize: "16px", lineHeight: "1.6", margin: "0 0 16px" }}>{children}</Text>;
}

/** The one action a mail is about, as a button (its address follows in the plain text). */
export function Cta({ href, children }: { href: string; children: string }) {
  return (
    <Section style={{ margin: "24px 0" }}>
      <Button
        href={href}
        style={{
          backgroundColor: LOOK.clay,
          borderRadius: "999px",
          color: "#ffffff",
          fontFamily: LOOK.sans,
          fontSize: "15px",
          fontWeight: 600,
          padding: "12px 22px",
        }}
      >
        {children}
      </Button>
    </Section>
  );
}

/** A receipt-like list of label and value ("Amount: $49.00 USD" in the plain text too). */
export function Facts({ rows }: { rows: [label: string, value: ReactNode][] }) {
  return (
    <Section style={{ backgroundColor: LOOK.sand, borderRadius: "12px", margin: "8px 0 20px", padding: "12px 20px" }}>
      {rows.map(([label, value]) => (
        <Text key={label} style={{ fontSize: "14px", lineHeight: "1.5", margin: "4px 0" }}>
          <span style={{ color: LOOK.mist }}>{label}:</span> <strong>{value}</strong>
        </Text>
      ))}
    </Section>
  );
}

/** What someone typed, kept as they wrote it (line breaks included). */
export function Quote({ children }: { children: string }) {
  return (
    <Section style={{ borderLeft: `3px solid ${LOOK.brass}`, margin: "8px 0 20px", padding: "4px 16px" }}>
      <Text style={{ fontSize: "15px", lineHeight: "1.6", margin: 0 }}>
        {children.split(/\r?\n/).map((line, i) => (
          <Fragment key={i}>
            {i > 0 ? <br /> : null}
            {line}
          </Fragment>
        ))}
      </Text>
    </Section>
  );
}

/** A quiet line under the action (the link written out, a validity). */
export function Small({ children }: { children: ReactNode }) {
  return <Text style={{ color: LOOK.mist, fontSize: "13px", lineHeight: "1.6", margin: "0 0 8px" }}>{children}</Text>;
}

export { Hr, Link };
