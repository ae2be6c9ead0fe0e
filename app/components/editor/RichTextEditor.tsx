import { lazy, Suspense, useRef, useState, type ReactNode } from "react";
import { mergeAttributes, Node } from "@tiptap/core";
import Image from "@tiptap/extension-image";
import Youtube from "@tiptap/extension-youtube";
import { EditorContent, useEditor, useEditorState, type Editor } from "@tiptap/react";
import StarterKit from "@tiptap/starter-kit";
import { hasMarker, MEMBERS_MARKER_ATTRIBUTE } from "#domain/articles.ts";
import { parseVideoId, watchUrl } from "#domain/video.ts";

// The library's picker loads when it is first opened (as the image fields do).
const MediaPicker = lazy(() => import("../media/MediaPicker").then((m) => ({ default: m.MediaPicker })));

/** The label the members-only marker shows in the editor (stored as `<hr data-members-only>`). */
export const MARKER_LABEL = "Members only below this line";

/**
 * The members-only marker (domain/articles.ts): a block of its own, stored as `<hr data-members-only>`, drawn in the
 * editor as a labelled line. Read before the plain horizontal rule (a higher priority), so that it stays a marker.
 */
const MembersOnly = Node.create({
  name: "membersOnly",
  group: "block",
  atom: true,
  selectable: true,
  priority: 1000,
  parseHTML: () => [{ tag: `hr[${MEMBERS_MARKER_ATTRIBUTE}]` }],
  renderHTML: ({ HTMLAttributes }) => ["hr", mergeAttributes(HTMLAttributes, { [MEMBERS_MARKER_ATTRIBUTE]: "" })],
  addNodeView: () => () => {
    const dom = document.createElement("div");
    dom.setAttribute("data-members-marker", "");
    dom.contentEditable = "false";
    dom.className =
      "my-6 flex items-center gap-3 text-xs font-semibold uppercase tracking-wide text-clay-dark before:h-px before:flex-1 before:bg-clay after:h-px after:flex-1 after:bg-clay";
    dom.textContent = MARKER_LABEL;
    return { dom };
  },
});

/** One toolbar button: a label for assistive technology, pressed when its format is on. */
function ToolButton({
  label,
  onClick,
  active,
  disabled,
  children,
  testId,
}: {
  label: string;
  onClick: () => void;
  active?: boolean;
  disabled?: boolean;
  children: ReactNode;
  testId?: string;
}) {
  return (
    <button
      type="button"
      onClick={onClick}
      aria-label={label}
      title={label}
      aria-pressed={active === undefined ? undefined : active}
      disabled={disabled}
      data-testid={testId}
      className={`min-h-9 min-w-9 rounded-lg px-2 text-sm ring-1 ring-linen disabled:opacity-40 ${active ? "bg-forest text-white" : "text-forest hover:bg-sand"}`}
    >
      {children}
    </button>
  );
}

type ArticleEditorOptions = { initialHtml: string; labelId: string; describedBy?: string };

/** The Tiptap editor with the article's extensions; `onChange` receives the HTML after each change. */
function useArticleEditor({
  initialHtml,
  labelId,
  describedBy,
  onChange,
}: ArticleEditorOptions & { onChange: (html: string) => void }) {
  return useEditor({
    immediatelyRender: false,
    extensions: [
      StarterKit.configure({
        heading: { levels: [2, 3, 4] },
        link: { openOnClick: false, autolink: true, protocols: ["mailto"] },
        underline: false,
      }),
      Image.configure({ inline: false }),
      Youtube.configure({ nocookie: true, controls: true, width: 640, height: 360 }),
      MembersOnly,
    ],
    content: initialHtml,
    editorProps: {
      attributes: {
        role: "textbox",
        "aria-multiline": "true",
        "aria-labelledby": labelId,
        ...(describedBy ? { "aria-describedby": describedBy } : {}),
        class:
          // The article page's own typography (app.css .article-body): what is written looks as it will read.
          "article-body min-h-72 rounded-b-2xl bg-white px-4 py-3 focus:outline-none focus-visible:ring-2 focus-visible:ring-clay",
        "data-testid": "rich-text-body",
      },
    },
    onUpdate: ({ editor: e }) => onChange(e.getHTML()),
  });
}

/** Which formats are on where the cursor is, whether the marker is in, and whether undo and redo can run. */
function useToolState(editor: Editor | null) {
  return useEditorState({
    editor,
    selector: ({ editor: e }) =>
      e
        ? {
            bold: e.isActive("bold"),
            italic: e.isActive("italic"),
            h2: e.isActive("heading", { level: 2 }),
            h3: e.isActive("heading", { level: 3 }),
            h4: e.isActive("heading", { level: 4 }),
            bullet: e.isActive("bulletList"),
            ordered: e.isActive("orderedList"),
            quote: e.isActive("blockquote"),
            code: e.isActive("codeBlock"),
            link: e.isActive("link"),
            marker: hasMarker(e.getHTML()),
            undo: e.can().undo(),
            redo: e.can().redo(),
          }
        : null,
  });
}

/** A toolbar action: on the editor once it is there, clearing the last message first. */
type Run = (f: (e: Editor) => void) => () => void;
type ToolState = ReturnType<typeof useToolState>;

/** `run`, and the two actions that ask for an address first (a link, a YouTube video). */
function commandsOf(editor: Editor | null, setMessage: (message: string) => void) {
  const run = (f: (e: Editor) => void) => () => {
    if (!editor) return;
    setMessage("");
    f(editor);
  };
  const addLink = run((e) => {
    const before = e.getAttributes("link").href as string | undefined;
    const href = window.prompt("Link address (https://…, mailto:… or a path such as /pricing)", before ?? "https://");
    if (href === null) return;
    if (!href.trim()) e.chain().focus().extendMarkRange("link").unsetLink().run();
    else e.chain().focus().extendMarkRange("link").setLink({ href: href.trim() }).run();
  });
  const addVideo = run((e) => {
    const link = window.prompt("A YouTube link (the same links the banner accepts)");
    if (link === null) return;
    const id = parseVideoId(link);
    if (!id) return setMessage("That is not a YouTube link: paste the address of a YouTube video.");
    e.chain()
      .focus()
      .insertContent([{ type: "youtube", attrs: { src: watchUrl(id) } }, { type: "paragraph" }])
      .run();
  });
  return { run, addLink, addVideo };
}

/** Headings, bold, italic, lists, quote and code: each pressed while its format is on. */
function FormatButtons({ state, run }: { state: ToolState; run: Run }) {
  return (
    <>
      <ToolButton
        label="H2: heading"
        active={state?.h2}
        onClick={run((e) => e.chain().focus().toggleHeading({ level: 2 }).run())}
      >
        H2
      </ToolButton>
      <ToolButton
        label="H3: subheading"
        active={state?.h3}
        onClick={run((e) => e.chain().focus().toggleHeading({ level: 3 }).run())}
      >
        H3
      </ToolButton>
      <ToolButton
        label="H4: small heading"
        active={state?.h4}
        onClick={run((e) => e.chain().focus().toggleHeading({ level: 4 }).run())}
      >
        H4
      </ToolButton>
      <ToolButton label="Bold" active={state?.bold} onClick={run((e) => e.chain().focus().toggleBold().run())}>
        <strong>B</strong>
      </ToolButton>
      <ToolButton label="Italic" active={state?.italic} onClick={run((e) => e.chain().focus().toggleItalic().run())}>
        <em>I</em>
      </ToolButton>
      <ToolButton
        label="• List: bulleted"
        active={state?.bullet}
        onClick={run((e) => e.chain().focus().toggleBulletList().run())}
      >
        • List
      </ToolButton>
      <ToolButton
        label="1. List: numbered"
        active={state?.ordered}
        onClick={run((e) => e.chain().focus().toggleOrderedList().run())}
      >
        1. List
      </ToolButton>
      <ToolButton label="Quote" active={state?.quote} onClick={run((e) => e.chain().focus().toggleBlockquote().run())}>
        “ ”
      </ToolButton>
      <ToolButton label="Code" active={state?.code} onClick={run((e) => e.chain().focus().toggleCodeBlock().run())}>
        {"</>"}
      </ToolButton>
    </>
  );
}

/** Link, image, video and the members-only marker; then undo and redo. */
function InsertButtons({
  state,
  run,
  addLink,
  addVideo,
  onImage,
}: { state: ToolState; run: Run; onImage: () => void } & Omit<ReturnType<typeof commandsOf>, "run">) {
  return (
    <>
      <ToolButton label="Link" active={state?.link} onClick={addLink}>
        Link
      </ToolButton>
      <ToolButton label="Image from the library" onClick={onImage} testId="editor-image">
        Image
      </ToolButton>
      <ToolButton label="YouTube video" onClick={addVideo}>
        Video
      </ToolButton>
      <ToolButton
        label={
          state?.marker
            ? "Members only below: the marker is in the body already"
            : "Members only below: the members-only part starts here"
        }
        disabled={state?.marker}
        // With a paragraph after it, where the cursor goes: typing never replaces the marker.
        onClick={run((e) =>
          e
            .chain()
            .focus()
            .insertContent([{ type: "membersOnly" }, { type: "paragraph" }])
            .run(),
        )}
        testId="editor-marker"
      >
        Members only below
      </ToolButton>
      <ToolButton label="Undo" disabled={!state?.undo} onClick={run((e) => e.chain().focus().undo().run())}>
        ↶
      </ToolButton>
      <ToolButton label="Redo" disabled={!state?.redo} onClick={run((e) => e.chain().focus().redo().run())}>
        ↷
      </ToolButton>
    </>
  );
}

/**
 * The article body's rich-text editor (issue 36) on Tiptap: headings 2 to 4, bold, italic, lists, links, quotes,
 * code, images from the media library, YouTube videos (the links the banner accepts), and the members-only marker.
 * The HTML goes with the form in a hidden input named `name`; the server cleans it (server/lib/clean-html.ts). Loaded
 * only by the article editing screen (React.lazy), so no other page carries Tiptap.
 */
export default function RichTextEditor({
  name,
  initialHtml,
  labelId,
  describedBy,
}: {
  name: string;
  initialHtml: string;
  /** The id of the field's visible label. */
  labelId: string;
  describedBy?: string;
}) {
  const hidden = useRef<HTMLInputElement>(null);
  const [picking, setPicking] = useState(false);
  const [message, setMessage] = useState("");
  const editor = useArticleEditor({
    initialHtml,
    labelId,
    describedBy,
    // The HTML goes with the form in the hidden input.
    onChange: (html) => {
      if (hidden.current) hidden.current.value = html;
    },
  });
  const state = useToolState(editor);
  const { run, addLink, addVideo } = commandsOf(editor, setMessage);
  return (
    <div className="rounded-2xl ring-1 ring-linen" data-testid="rich-text-editor">
      <input ref={hidden} type="hidden" name={name} defaultValue={initialHtml} />
      <div
        role="toolbar"
        aria-label="Formatting"
        className="flex flex-wrap gap-1.5 rounded-t-2xl border-b border-linen bg-sand/50 p-2"
      >
        <FormatButtons state={state} run={run} />
        <InsertButtons state={state} run={run} addLink={addLink} addVideo={addVideo} onImage={() => setPicking(true)} />
      </div>
      <EditorContent editor={editor} />
      {message ? (
        <p role="alert" className="field-error px-4 pb-3">
          {message}
        </p>
      ) : null}
      {picking ? (
        <Suspense fallback={<span role="status">Opening the library…</span>}>
          <MediaPicker
            open
            onClose={() => setPicking(false)}
            onPick={(item) => {
              // With a paragraph after it, where the cursor goes (as the marker and videos).
              editor
                ?.chain()
                .focus()
                .insertContent([{ type: "image", attrs: { src: item.url, alt: item.alt } }, { type: "paragraph" }])
                .run();
              setPicking(false);
            }}
          />
        </Suspense>
      ) : null}
    </div>
  );
}
