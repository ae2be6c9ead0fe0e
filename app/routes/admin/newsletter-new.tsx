import { useState } from "react";
import { redirect, useFetcher } from "react-router";
import type { Route } from "./+types/newsletter-new";
import { ActionForm, useActionForm } from "#app/components/ActionForm.tsx";
import { SelectField, TextAreaField, TextField } from "#app/components/forms.tsx";
import { formAction } from "#app/lib/form.server.ts";
import { requireStaff } from "#app/lib/guards.server.ts";
import { AdminHeader } from "#app/components/admin/AdminHeader.tsx";
import { AUDIENCE_LABELS, NEWSLETTER_AUDIENCES, type NewsletterAudience } from "#domain/newsletters.ts";

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireStaff(request, context, "subscribers");
  const q = new URL(request.url).searchParams;
  // The live count of the audience ticked: ?count=subscribers,members
  if (q.has("count")) {
    const audience = (q.get("count") ?? "")
      .split(",")
      .filter((a): a is NewsletterAudience => (NEWSLETTER_AUDIENCES as readonly string[]).includes(a));
    return { count: await context.services.newsletters.audienceCount(audience), articles: [] };
  }
  return { count: null, articles: await context.services.newsletters.publishedArticles() };
}

export async function action({ request, context }: Route.ActionArgs) {
  const viewer = await requireStaff(request, context, "subscribers");
  const form = await request.formData();
  let created: string | undefined;
  const answer = await formAction(form, {
    run: async (value) => {
      created = await context.services.newsletters.create({ ...value, audience: form.getAll("audience") }, viewer);
    },
    success: "The newsletter is saved as a draft",
  });
  if (created) throw redirect(`/newsletters/${created}`);
  return answer;
}

export const meta: Route.MetaFunction = () => [{ title: "New newsletter" }, { name: "robots", content: "noindex" }];

/** /newsletters/new: an article or a plain message, the audience (with its live count), subject and preview text. */
export default function NewNewsletter({ loaderData: { articles } }: Route.ComponentProps) {
  const form = useActionForm({ id: "newsletter-new" });
  const counter = useFetcher<{ count: number | null }>();
  const [ticked, setTicked] = useState<NewsletterAudience[]>(["subscribers"]);
  const recount = (next: NewsletterAudience[]) => {
    setTicked(next);
    void counter.load(`/newsletters/new?count=${next.join(",")}`);
  };
  const count = counter.data?.count;
  return (
    <>
      <AdminHeader
        title="New newsletter"
        back={{ to: "/newsletters", label: "Newsletters" }}
        lead="Saved as a draft: you send a test to yourself, then send it now or at a time."
      />
      <ActionForm handle={form} className="space-y-6 rounded-2xl bg-white p-6 ring-1 ring-linen sm:p-8">
        <TextField label="Subject" name="subject" maxLength={200} />
        <TextField label="Preview text (shown after the subject in the inbox)" name="previewText" maxLength={200} />
        <SelectField
          label="Article"
          name="articleId"
          placeholder="None: a message of its own (below)"
          options={articles.map((a) => ({ value: a.id, label: a.title }))}
        />
        <TextAreaField
          label="Message (when no article is chosen): blank lines start new paragraphs"
          name="bodyText"
          rows={10}
        />
        <fieldset className="space-y-2">
          <legend className="text-sm font-medium text-ink">Audience</legend>
          {NEWSLETTER_AUDIENCES.map((a) => (
            <label key={a} className="flex items-center gap-3 text-sm text-ink">
              <input
                type="checkbox"
                name="audience"
                value={a}
                checked={ticked.includes(a)}
                onChange={(e) => recount(e.target.checked ? [...ticked, a] : ticked.filter((t) => t !== a))}
                className="h-5 w-5 accent-forest"
              />
              {AUDIENCE_LABELS[a]}
            </label>
          ))}
          <p className="text-sm text-mist" aria-live="polite" data-testid="audience-count">
            {count === undefined || count === null
              ? "The number of addresses shows when you change the audience."
              : count === 1
                ? "1 address (each address once, suppressed ones left out)."
                : `${count} addresses (each address once, suppressed ones left out).`}
          </p>
        </fieldset>
        <button type="submit" className="btn-primary px-6 py-2.5 text-sm" disabled={form.busy}>
          {form.busy ? "Saving…" : "Save the draft"}
        </button>
      </ActionForm>
    </>
  );
}
