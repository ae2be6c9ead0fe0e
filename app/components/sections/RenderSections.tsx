import { blockType, pages, type Block, type PageContent, type PageKey } from "#app/content/pages.ts";
import { getSection, type SectionType } from "#domain/registry.ts";
import { PageStructuredData } from "../StructuredData";
import { sectionComponents } from "./index";

type AnyContent = Partial<Record<SectionType, unknown[]>>;

/** One section of a page, drawn by its component with its records (and heading) from the page's content. */
export function RenderSection({ block, content }: { block: Block; content: AnyContent }) {
  const type = blockType(block);
  const { type: _type, ...options } = typeof block === "string" ? { type } : block;
  const section = getSection(type)!;
  const records = content[type] ?? [];
  const props = {
    ...options,
    ...(section.cardinality === "singleton" ? { record: records[0] } : { records }),
    ...(section.heading ? { heading: content[section.heading as SectionType]?.[0] } : {}),
  };
  // The map is typed per section; here the type is only known at run time.
  const Component = sectionComponents[type] as (props: object) => React.ReactNode;
  return <Component {...props} />;
}

/** A page's sections, in the order app/content/pages.ts declares them, and their structured data for search engines. */
export function RenderSections<P extends PageKey>({ page, content }: { page: P; content: PageContent<P> }) {
  return (
    <>
      {pages[page].blocks.map((block: Block, i) => (
        <RenderSection key={`${blockType(block)}-${i}`} block={block} content={content as AnyContent} />
      ))}
      <PageStructuredData page={page} content={content} />
    </>
  );
}
