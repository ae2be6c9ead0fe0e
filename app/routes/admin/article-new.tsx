import { redirect } from "react-router";
import type { Route } from "./+types/article-new";
import { articleInputSchema } from "../../../domain/article-edits";
import { ArticleForm, EMPTY_ARTICLE } from "../../components/admin/ArticleForm";
import { formAction } from "../../lib/form.server";
import { requireStaff } from "../../lib/guards.server";
import { AdminHeader } from "../../components/admin/AdminHeader";

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
