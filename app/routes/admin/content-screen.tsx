import { useState } from "react";
import { data, Link, useSearchParams } from "react-router";
import type { Route } from "./+types/content-screen";
import { editHref, screenFor } from "../../content/admin-screens";
import { getSection, type SectionDef } from "../../content/registry";
import { Modal, OpenDialogButton } from "../../components/Modal";
import { PageAnswer } from "../../components/ActionForm";
import { RegistryForm, registryFormId } from "../../components/RegistryForm";
import { requireAdmin } from "../../lib/guards.server";
import { formatPrice } from "../../lib/pricing";
import { AdminHeader } from "./layout";
import { contentAction } from "./content.server";

type Rec = Record<string, unknown> & { _id: string };

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireAdmin(request, context);
  const screen = screenFor(new URL(request.url).pathname);
  if (!screen) throw data({ message: "Not found" }, { status: 404 });
  const snapshot = await context.services.content.snapshot();
  return {
    path: screen.path,
    sections: screen.sections.map((s) => ({
      type: s.type,
      records: snapshot[s.type as keyof typeof snapshot] as unknown as Rec[],
    })),
  };
}

export const action = ({ request, context }: Route.ActionArgs) => contentAction(request, context);

export const meta: Route.MetaFunction = ({ data }) => [
  { title: data ? getSection(data.sections[0]!.type)!.admin.heading : "Content" },
  { name: "robots", content: "noindex" },
];

/** Every content screen of spec 2, from the registry: a singleton's add form or edit link; a list's form and its records. */
export default function ContentScreen({ loaderData }: Route.ComponentProps) {
  const first = getSection(loaderData.sections[0]!.type)!;
  return (
    <>
      <AdminHeader title={first.admin.heading} back={{ to: "/setting", label: "All site content" }} />
      <div className="space-y-10">
        {loaderData.sections.map(({ type, records }) => (
          <SectionPanel key={type} section={getSection(type)!} records={records} />
        ))}
      </div>
    </>
  );
}

const panel = "rounded-2xl bg-white p-6 ring-1 ring-linen sm:p-8";

function SectionPanel({ section, records }: { section: SectionDef; records: Rec[] }) {
  if (section.cardinality === "singleton") {
    const record = records[0];
    return (
      <section className={panel} data-testid={`panel-${section.type}`}>
        <h2 className="font-serif text-xl text-forest">{section.title}</h2>
        {record ? <PageAnswer form={registryFormId("add", section.type)} /> : null}
        {record ? (
          <div className="mt-4 flex flex-wrap items-center justify-between gap-4">
            <p className="text-sm text-mist">{summary(section, record)}</p>
            <Link to={editHref(section, record._id)} className="btn-dark">
              {section.admin.editLinkText ?? `Edit ${section.title}`}
            </Link>
          </div>
        ) : (
          <div className="mt-6">
            <RegistryForm section={section} intent="add" />
          </div>
        )}
      </section>
    );
  }
  const full = section.max !== undefined && records.length >= section.max;
  return (
    <section className="space-y-6" data-testid={`panel-${section.type}`}>
      <div className={panel}>
        <h2 className="font-serif text-xl text-forest">{section.admin.heading}</h2>
        <RecordList section={section} records={records} />
      </div>
      <div className={panel}>
        <h2 className="font-serif text-xl text-forest">Add {section.title}</h2>
        <div className="mt-6">
          {full ? (
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

/** The first text field's value: what a person calls the record. */
function summary(section: SectionDef, record: Rec): string {
  const f = section.fields.find((x) => x.kind === "text" || x.kind === "longText");
  return String((f && record[f.name]) ?? "");
}

function RecordList({ section, records }: { section: SectionDef; records: Rec[] }) {
  if (records.length === 0) return <p className="mt-4 text-sm text-mist">None yet.</p>;
  if (section.type === "pricing") {
    return (
      <ul className="mt-6 grid gap-4 sm:grid-cols-2 xl:grid-cols-3">
        {records.map((r) => (
          <li key={r._id} className="rounded-xl bg-sand p-5">
            <p className="font-serif text-lg text-forest">{String(r.packageName)}</p>
            <p className="mt-2 text-sm">{formatPrice(Number(r.packagePrice))}/month</p>
            <p className="text-sm text-mist">Valid for {String(r.packageValidity)} days</p>
            <Link to={editHref(section, r._id)} className="btn-outline mt-4 px-4 py-2 text-xs">
              Edit Pricing
            </Link>
          </li>
        ))}
      </ul>
    );
  }
  if (section.type === "about") return <AboutList section={section} records={records} />;
  if (section.type === "step") {
    return (
      <ul className="mt-6 grid gap-4 sm:grid-cols-2">
        {records.map((r) => (
          <li key={r._id} className="rounded-xl border-l-4 border-clay bg-sand p-5">
            <p className="text-xs font-semibold text-clay">Step {String(r.stepNumber)}</p>
            <Link to={editHref(section, r._id)} className="mt-1 block font-serif text-lg text-forest hover:text-clay">
              {String(r.stepTitle)}
            </Link>
            <p className="mt-1 text-sm text-mist">{String(r.stepDetails)}</p>
          </li>
        ))}
      </ul>
    );
  }
  if (section.type === "workStep") {
    return (
      <ul className="mt-6 flex flex-wrap gap-3">
        {records
          .filter((r) => /^0[1-4]$/.test(String(r.stepNumber)))
          .map((r) => (
            <li key={r._id}>
              <Link
                to={editHref(section, r._id)}
                className="inline-flex h-14 w-14 items-center justify-center rounded-full bg-forest font-serif text-lg text-white hover:bg-clay"
              >
                {String(r.stepNumber)}
              </Link>
            </li>
          ))}
      </ul>
    );
  }
  return (
    <ul className="mt-4 divide-y divide-linen">
      {records.map((r) => (
        <li key={r._id}>
          {/* The title is the link to its edit screen (spec 2: "each title links to …"). */}
          <Link
            to={editHref(section, r._id)}
            className="group flex items-center justify-between gap-3 py-3 text-sm text-ink hover:text-clay"
          >
            <span className="min-w-0">{summary(section, r)}</span>
            <span className="shrink-0 font-semibold text-clay group-hover:underline">Edit</span>
          </Link>
        </li>
      ))}
    </ul>
  );
}

/**
 * About sections: one update button each, opening the update form in a modal with a close button. Without
 * JavaScript the button opens this screen with ?edit={id}, which renders the modal open.
 */
function AboutList({ section, records }: { section: SectionDef; records: Rec[] }) {
  const [params] = useSearchParams();
  const [editing, setEditing] = useState<Rec | null>(() => records.find((r) => r._id === params.get("edit")) ?? null);
  const close = () => setEditing(null);
  return (
    <>
      <ul className="mt-4 divide-y divide-linen">
        {records.map((r) => (
          <li key={r._id} className="flex flex-wrap items-center justify-between gap-3 py-3">
            <span className="text-sm">{String(r.aboutHeading)}</span>
            <OpenDialogButton
              name="edit"
              value={r._id}
              onOpen={() => setEditing(r)}
              className="btn-outline px-4 py-2 text-xs"
            >
              Update
            </OpenDialogButton>
          </li>
        ))}
      </ul>
      <Modal open={editing !== null} onClose={close} title="Update About Section">
        {editing ? <RegistryForm section={section} record={editing} intent="update" onDone={close} /> : null}
      </Modal>
    </>
  );
}
