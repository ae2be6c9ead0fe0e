import type { Route } from "./+types/contact";
import { ContactBlocks } from "../../components/sections/ContactBlocks";
import { ContactForm } from "../../components/sections/ContactForm";
import { PageHeader } from "../../components/sections/PageHeader";
import { handlePublicForm } from "./forms.server";
import { pageMeta } from "./meta";
import { anonymousPageHeaders } from "./cache";

export const headers = anonymousPageHeaders;

export async function loader({ context }: Route.LoaderArgs) {
  const c = await context.services.content.snapshot();
  return { blocks: c.contactBlock };
}

/** The contact form posts here (from every page that shows it). */
export async function action({ request, context }: Route.ActionArgs) {
  return handlePublicForm("message", request, context);
}

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, {
    title: "Contact Us",
    description: "Send the studio a message about your interior or your search rankings; we answer within one working day.",
    path: "/contact",
  });

/** /contact and /contact-us. */
export default function ContactPage({ loaderData }: Route.ComponentProps) {
  return (
    <>
      <PageHeader title="Contact Us" lead="Questions about a project, a membership or an invoice: we are here." />
      <ContactBlocks blocks={loaderData.blocks} />
      <ContactForm />
    </>
  );
}
