import { data, Link } from "react-router";
import type { Route } from "./+types/content-screen";
import { screenFor } from "#app/content/admin-screens.ts";
import {
  recordView,
  sectionView,
  type ListedRecord,
  type RecordView,
  type SectionView,
} from "#app/content/section-view.ts";
import { Curation, DeleteButton, RecordList } from "#app/components/admin/SectionList.tsx";
import { PageAnswer } from "#app/components/ActionForm.tsx";
import { RegistryForm, registryFormId } from "#app/components/RegistryForm.tsx";
import { requireStaff } from "#app/lib/guards.server.ts";
import { AdminHeader } from "#app/components/admin/AdminHeader.tsx";
import { contentAction } from "./content.server";

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireStaff(request, context, "content");
  const screen = screenFor(new URL(request.url).pathname);
  if (!screen) throw data({ message: "Not found" }, { status: 404 });
  const snapshot = await context.services.content.snapshot();
  const sections = screen.sections.map((section) => {
    const records = snapshot[section.type as keyof typeof snapshot] as unknown as ListedRecord[];
    // What the screen draws of the section and its records, from the registry (whose code stays on the server).
    return { section: sectionView(section, records), records: records.map((r) => recordView(section, r)) };
  });
  return {
    path: screen.path,
    heading: screen.sections[0]!.admin.heading,
    sections,
    // The library images its fields show (previews).
    media: await context.services.media.describe(sections.map(({ records }) => records.map((r) => r.record))),
  };
}

export const action = ({ request, context }: Route.ActionArgs) => contentAction(request, context);

export const meta: Route.MetaFunction = ({ data }) => [
  { title: data?.heading ?? "Content" },
  { name: "robots", content: "noindex" },
];

/** Every content screen of spec 2, from the registry: a singleton's add form or edit link; a list's form and its records. */
export default function ContentScreen({ loaderData }: Route.ComponentProps) {
  return (
    <>
      <AdminHeader title={loaderData.heading} back={{ to: "/setting", label: "All site content" }} />
      <div className="space-y-10">
        {loaderData.sections.map(({ section, records }) => (
          <SectionPanel key={section.type} section={section} records={records} />
        ))}
      </div>
    </>
  );
}

const panel = "rounded-2xl bg-white p-6 ring-1 ring-linen sm:p-8";

function SectionPanel({ section, records }: { section: SectionView; records: readonly RecordView[] }) {
  if (section.cardinality === "singleton") {
    const record = records[0];
    return (
      <section className={panel} data-testid={`panel-${section.type}`}>
        <h2 className="font-serif text-xl text-forest">{section.title}</h2>
        {record ? <PageAnswer form={registryFormId("add", section.type)} /> : null}
        <Curation section={section} records={records}>
          {record ? (
            <div className="mt-4 flex flex-wrap items-center justify-between gap-4">
              <p className="min-w-0 flex-1 basis-48 text-sm text-mist">{record.title}</p>
              <span className="flex flex-wrap items-center gap-3">
                <Link to={record.edit} className="btn-dark">
                  {section.editLinkText ?? `Edit ${section.title}`}
                </Link>
                <DeleteButton section={section} item={record} />
              </span>
            </div>
          ) : (
            <div className="mt-6">
              <RegistryForm section={section} intent="add" />
            </div>
          )}
        </Curation>
      </section>
    );
  }
  return (
    <section className="space-y-6" data-testid={`panel-${section.type}`}>
      <div className={panel}>
        <h2 className="font-serif text-xl text-forest">{section.heading}</h2>
        <RecordList
          section={section}
          records={records}
          editForm={(record, done) => <RegistryForm section={section} record={record} intent="update" onDone={done} />}
        />
      </div>
      <div className={panel}>
        <h2 className="font-serif text-xl text-forest">Add {section.title}</h2>
        <div className="mt-6">
          {section.full ? (
            <p className="rounded-xl bg-sand px-4 py-3 text-sm text-ink" data-testid="max-notice">
              {section.maxNotice}
            </p>
          ) : (
            <RegistryForm section={section} intent="add" />
          )}
        </div>
      </div>
    </section>
  );
}
