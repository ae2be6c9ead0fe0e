import { data } from "react-router";
import type { Route } from "./+types/content-edit";
import { editFor } from "../../content/admin-screens";
import { getSection } from "../../../domain/registry";
import { RegistryForm } from "../../components/RegistryForm";
import { requireStaff } from "../../lib/guards.server";
import { AdminHeader } from "./layout";
import { contentAction } from "./content.server";

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireStaff(request, context, "content");
  const found = editFor(new URL(request.url).pathname);
  if (!found) throw data({ message: "Not found" }, { status: 404 });
  const record = await context.services.content.get(found.section.type, found.id);
  // The library images its fields show (previews).
  return { type: found.section.type, record, media: await context.services.media.describe(record) };
}

export const action = ({ request, context }: Route.ActionArgs) => contentAction(request, context);

export const meta: Route.MetaFunction = ({ data }) => [
  { title: data ? `Edit ${getSection(data.type)!.title}` : "Edit" },
  { name: "robots", content: "noindex" },
];

/** The edit screen of one record of any section (e.g. /banner/{id}, /package-edit/{id}). */
export default function ContentEdit({ loaderData: { type, record } }: Route.ComponentProps) {
  const section = getSection(type)!;
  return (
    <>
      <AdminHeader title={`Edit ${section.title}`} back={{ to: section.admin.screen, label: section.admin.heading }} />
      <div className="rounded-2xl bg-white p-6 ring-1 ring-linen sm:p-8">
        <RegistryForm section={section} record={record as never} intent="update" />
      </div>
    </>
  );
}
