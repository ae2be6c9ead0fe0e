import { data } from "react-router";
import type { Route } from "./+types/content-edit";
import { editFor } from "#app/content/admin-screens.ts";
import { sectionView, type ListedRecord } from "#app/content/section-view.ts";
import { RegistryForm } from "#app/components/RegistryForm.tsx";
import { requireStaff } from "#app/lib/guards.server.ts";
import { AdminHeader } from "#app/components/admin/AdminHeader.tsx";
import { contentAction } from "./content.server";

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireStaff(request, context, "content");
  const found = editFor(new URL(request.url).pathname);
  if (!found) throw data({ message: "Not found" }, { status: 404 });
  const record = await context.services.content.get(found.section.type, found.id);
  // The section as the form draws it, from the registry (whose code stays on the server); the library images its
  // fields show (previews).
  return {
    section: sectionView(found.section),
    record: record as unknown as ListedRecord,
    media: await context.services.media.describe(record),
  };
}

export const action = ({ request, context }: Route.ActionArgs) => contentAction(request, context);

export const meta: Route.MetaFunction = ({ data }) => [
  { title: data ? `Edit ${data.section.title}` : "Edit" },
  { name: "robots", content: "noindex" },
];

/** The edit screen of one record of any section (e.g. /banner/{id}, /package-edit/{id}). */
export default function ContentEdit({ loaderData: { section, record } }: Route.ComponentProps) {
  return (
    <>
      <AdminHeader title={`Edit ${section.title}`} back={{ to: section.screen, label: section.heading }} />
      <div className="rounded-2xl bg-white p-6 ring-1 ring-linen sm:p-8">
        <RegistryForm section={section} record={record} intent="update" />
      </div>
    </>
  );
}
