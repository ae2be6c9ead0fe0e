import { useContext } from "react";
import type { Route } from "./+types/preview";
import { PublicPageBody } from "#app/components/pages/PublicPageBody.tsx";
import SiteFrame from "#app/components/layout/SiteFrame.tsx";
import { MediaContext, MediaProvider } from "#app/components/media/MediaProvider.tsx";
import { PREVIEW_PATH, PREVIEW_TARGET } from "#app/content/preview-address.ts";
import { requireStaff } from "#app/lib/guards.server.ts";
import { STATIC_PAGE } from "#app/lib/hydration.ts";
import { previewAction, type PreviewAnswer, type PreviewRefused } from "./preview.server";

/**
 * The preview of a content form's unsaved change (issue 36, part 6; decision 074): the public page that shows the
 * section, drawn by its own components inside the site's frame, with the change laid over the saved content. Staff of
 * the content area only; plain HTML like the public pages; never cached, never indexed, never saved.
 */
export const handle = STATIC_PAGE;

/** Opened by address, there is nothing to draw: the page says where previews come from (staff only all the same). */
export async function loader({ request, context }: Route.LoaderArgs) {
  await requireStaff(request, context, "content");
  return null;
}

export const action = ({ request, context }: Route.ActionArgs) => previewAction(request, context);

/** Kept by no cache (the page cache stores only what a page marks as the same for everyone), and not for search. */
export const headers: Route.HeadersFunction = () => ({
  "Cache-Control": "private, no-store",
  "X-Robots-Tag": "noindex",
});

export const meta: Route.MetaFunction = () => [
  { title: "Preview — not saved" },
  { name: "robots", content: "noindex, nofollow" },
];

export default function Preview({ actionData }: Route.ComponentProps) {
  const answer = actionData as PreviewAnswer | PreviewRefused | undefined;
  if (answer?.ok) return <PreviewOf answer={answer} />;
  return (
    <>
      <SiteFrame mainClassName="flex flex-1 items-center bg-sand/50">
        <div className="container-page py-16" data-testid="preview-refused">
          <div className="mx-auto max-w-2xl rounded-2xl bg-white p-8 ring-1 ring-linen">
            <h1 className="font-serif text-2xl text-forest">{answer?.title ?? "Nothing to preview"}</h1>
            <p className="mt-3 text-ink">
              {answer?.message ??
                "A preview opens from the Preview button of a content form in the back office: it shows the page with what the form holds, before it is saved."}
            </p>
            {answer?.problems.length ? (
              <ul className="mt-4 list-disc space-y-1 pl-5 text-sm text-red-800">
                {answer.problems.map((p) => (
                  <li key={p.label + p.message}>{p.label ? `${p.label}: ${p.message}` : p.message}</li>
                ))}
              </ul>
            ) : null}
          </div>
        </div>
      </SiteFrame>
      <PreviewBar />
    </>
  );
}

function PreviewOf({ answer }: { answer: PreviewAnswer }) {
  // The images the preview draws, those picked in the form and not saved yet among them, beside the root's.
  const saved = useContext(MediaContext);
  return (
    <MediaProvider media={{ ...saved.media, ...answer.media }} images={saved.images}>
      <SiteFrame frame={answer.frame}>
        <PublicPageBody page={answer.page} content={answer.content} />
      </SiteFrame>
      <PreviewBar answer={answer} />
    </MediaProvider>
  );
}

/**
 * Says on every screenful that this is a preview and nothing is saved: fixed at the foot of the window (the site's
 * header is sticky at its top), with the other pages that show the section.
 */
function PreviewBar({ answer }: { answer?: PreviewAnswer }) {
  return (
    <>
      <div aria-hidden="true" className="h-32 bg-forest sm:h-20" />
      <aside
        aria-label="Preview"
        data-testid="preview-bar"
        className="fixed inset-x-0 bottom-0 z-[70] border-t-4 border-brass bg-forest text-white shadow-2xl print:hidden"
      >
        <div className="container-page flex flex-wrap items-center gap-x-6 gap-y-2 py-3">
          <p className="font-serif text-lg">Preview — not saved</p>
          {answer ? (
            <p className="min-w-0 flex-1 basis-64 text-sm text-white/85">
              {`${answer.pageName} as it will look once you ${answer.removing ? "delete" : "save"} this ${answer.sectionTitle}. Visitors still see the saved page; close this tab to go back to the form.`}
            </p>
          ) : null}
          {answer?.otherPages.map((other) => (
            <form key={other.page} method="post" action={PREVIEW_PATH} target={PREVIEW_TARGET}>
              {answer.posted.map(([name, value], i) => (
                <input key={`${name}-${i}`} type="hidden" name={name} value={value} />
              ))}
              <input type="hidden" name="page" value={other.page} />
              <button
                type="submit"
                className="rounded-full px-4 py-1.5 text-sm font-semibold text-white ring-1 ring-white/50 hover:bg-white/10"
              >
                {`Show on ${other.name}`}
              </button>
            </form>
          ))}
        </div>
      </aside>
    </>
  );
}
