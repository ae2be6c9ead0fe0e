/**
 * Checked by `npm run typecheck`, never run: each line marked @ts-expect-error must stay an error, so the types that
 * make a forgotten field, a misspelled field or a missing component fail typecheck cannot quietly stop doing so.
 */
import type { SectionProps } from "../components/sections/props";
import type { Block } from "./pages";
import type { BlockType, NewRecord } from "#domain/registry.ts";

const pricing = {
  packageName: "Basic",
  packagePrice: 49,
  packageValidity: 30,
  packageButtonText: "Order",
  packagePointOne: "1",
  packagePointTwo: "2",
  packagePointThree: "3",
  packagePointFour: "4",
  packagePointFive: "5",
  packagePointSix: "6",
  packagePointSeven: "7",
};

export const typed: NewRecord[] = [
  { type: "copyright", data: { copyrightText: "© 2026 Studio" } },
  { type: "pricing", data: { ...pricing, packagePointEight: "Optional points may be given" } },
  // @ts-expect-error a misspelled field
  { type: "copyright", data: { copyrigthText: "© 2026 Studio" } },
  // @ts-expect-error a missing required field
  { type: "footerAbout", data: { aboutFooterText: "About" } },
  // @ts-expect-error a number field given as text
  { type: "pricing", data: { ...pricing, packagePrice: "49" } },
  // @ts-expect-error an unknown section
  { type: "partners", data: {} },
];

export const blocks: Block[] = [
  "banner",
  { type: "about", layout: "skills" },
  // @ts-expect-error a heading is not listed on a page: it comes with its list
  "faqText",
  // @ts-expect-error an option another section's component takes
  { type: "banner", detailed: true },
];

export const reads = (props: SectionProps<"faqItem">) => [
  props.heading?.faqHeading,
  props.records[0]?.accodingTitle,
  // @ts-expect-error a field of another section
  props.records[0]?.serviceTitle,
];

// The component map's type (app/components/sections/index.ts): every section a page can list needs a component.
type ComponentMap = { [T in BlockType]: (props: SectionProps<T>) => unknown };
// @ts-expect-error sections without a component
export const incomplete: ComponentMap = { banner: () => null };
