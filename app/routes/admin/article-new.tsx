import { redirect } from "react-router";
import type { Route } from "./+types/article-new";
import { articleInputSchema } from "#domain/article-edits.ts";
import { ArticleForm, EMPTY_ARTICLE } from "#app/components/admin/ArticleForm.tsx";
import { formAction } from "#app/lib/form.server.ts";
import { requireStaff } from "#app/lib/guards.server.ts";
import { AdminHeader } from "#app/components/admin/AdminHeader.tsx";

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireStaff(request, context, "content");
  return { authors: await context.services.articles.authors(), timeZone: context.config.timeZone };
}

/** Saves the new article (a draft, scheduled or published, as its button says), then opens it for editing. */
export async function action({ request, context }: Route.ActionArgs) {
  const viewer = await requireStaff(request, context, "content");
  return formAction(await request.formData(), {
    schema: articleInputSchema,
    run: async (value) => {
      const { id } = await context.services.articles.create(value, viewer);
      throw redirect(`/articles/${id}`);
    },
  });
}

export const meta: Route.MetaFunction = () => [{ title: "New article" }, { name: "robots", content: "noindex" }];

/** /articles/new: the article's form, empty. */
export default function ArticleNew({ loaderData: { authors, timeZone } }: Route.ComponentProps) {
  return (
    <>
      <AdminHeader title="New article" back={{ to: "/articles", label: "Articles" }} />
      <ArticleForm
        formId="article-new"
        values={EMPTY_ARTICLE}
        state="draft"
        publishAt={null}
        authors={authors}
        timeZone={timeZone}
        isNew
      />
    </>
  );
}
