import { useEffect, useRef, type ReactNode } from "react";
import { ToastView, useToast } from "../toast";
import { gen, startGenerator } from "./generator-dom";
import { TemplateEditor } from "./TemplateEditor";

export function GeneratorError({ children }: { children?: string }) {
  return (
    <div
      role="alert"
      data-testid="generator-error"
      className="mx-auto mt-8 max-w-2xl rounded-2xl bg-red-50 px-6 py-4 text-sm text-red-800 ring-1 ring-red-200"
    >
      {children}
    </div>
  );
}

type Item = { id: string; itemName: string; itemsDescription: string; itemsGuideline: string };

/**
 * The generator's page as the server draws it, idle, with the <template>s its script clones (the results, a card,
 * an error, a toast). Its behaviour is generator-dom.ts: inline on the plain page the server sends (see the item
 * route), or started here when React draws the page after a navigation in the browser, with React's toasts.
 */
export function Generator({ item, delayMs }: { item: Item; delayMs: number }) {
  const root = useRef<HTMLElement>(null);
  const toast = useToast();
  useEffect(() => startGenerator(root.current!, { notify: (text) => toast("success", text) }), [toast]);
  const idleTitle = `Generate ${item.itemName}`;
  return (
    <section
      ref={root}
      id="generator"
      data-item={item.id}
      data-delay-ms={delayMs}
      data-title={idleTitle}
      className="bg-sand/60"
    >
      <div className="container-page py-12 sm:py-16">
        <header className="mx-auto max-w-3xl text-center">
          <p className="eyebrow">Cold email generator</p>
          <h1 className="section-title" aria-live="polite" {...gen("title")}>
            {idleTitle}
          </h1>
          <p className="section-lead">
            Create compelling, personalized cold emails in seconds with our AI-powered engine
          </p>
        </header>

        <GenerateButton />

        <div {...gen("error-slot")} />
        <div {...gen("results-slot")} />

        <ItemInfo item={item} />
      </div>

      <GeneratorTemplates />

      <TemplateEditor />
    </section>
  );
}

/** The round Generate button (its spinner hidden until it works) and the status line said while it does. */
function GenerateButton() {
  return (
    <div className="mt-10 flex flex-col items-center gap-4">
      <button
        type="button"
        data-action="generate"
        aria-busy="false"
        {...gen("generate")}
        className="group relative flex h-40 w-40 flex-col items-center justify-center gap-2 rounded-full bg-clay text-white shadow-xl ring-8 ring-clay/15 transition hover:bg-clay-dark focus-visible:outline-offset-4 disabled:cursor-wait disabled:opacity-90 sm:h-44 sm:w-44"
      >
        <span
          aria-hidden="true"
          hidden
          {...gen("spinner")}
          className="h-10 w-10 animate-spin rounded-full border-4 border-white/30 border-t-white"
        />
        <svg width="40" height="40" viewBox="0 0 24 24" aria-hidden="true" fill="currentColor" {...gen("idle-icon")}>
          <path d="M12 2l1.9 5.6L19.5 9.5l-5.6 1.9L12 17l-1.9-5.6L4.5 9.5l5.6-1.9L12 2zM19 14l.9 2.6 2.6.9-2.6.9L19 21l-.9-2.6-2.6-.9 2.6-.9L19 14zM5 15l.7 1.8 1.8.7-1.8.7L5 20l-.7-1.8-1.8-.7 1.8-.7L5 15z" />
        </svg>
        <span className="text-sm font-semibold tracking-wide" {...gen("label")}>
          Generate
        </span>
      </button>
      <p role="status" hidden className="text-sm font-medium text-forest" {...gen("status")}>
        Crafting perfect emails...
      </p>
    </div>
  );
}

/** The item's name, description and guidelines, beside the generator. */
function ItemInfo({ item }: { item: Item }) {
  return (
    <aside
      data-testid="item-info"
      className="mx-auto mt-12 max-w-3xl rounded-2xl bg-forest px-6 py-6 text-white sm:px-8"
    >
      <h2 className="font-serif text-xl">{item.itemName}</h2>
      <p className="mt-2 text-sm leading-relaxed whitespace-pre-line text-white/80">{item.itemsDescription}</p>
      {item.itemsGuideline ? (
        <div className="mt-4 rounded-xl px-4 py-3 ring-1 ring-white/20">
          {/* Outlined, not tinted: brass on a lighter box fell to 3.7:1; on the forest itself it reads 5:1. */}
          <p className="text-sm font-semibold text-brass">Guidelines:</p>
          <p className="mt-1 text-sm leading-relaxed whitespace-pre-line text-white/85">{item.itemsGuideline}</p>
        </div>
      ) : null}
    </aside>
  );
}

/** What the script clones: the results, a card, an error, a toast (each drawn once, inside a <template>). */
function GeneratorTemplates() {
  return (
    <>
      <template {...gen("error-template")}>
        <GeneratorError />
      </template>
      <template {...gen("results-template")}>
        <div className="mx-auto mt-12 max-w-3xl scroll-mt-24" data-testid="generated">
          <div className="flex flex-wrap items-center justify-between gap-3">
            <h2 className="text-2xl text-forest">
              Generated Cold Emails (<span {...gen("count")} />)
            </h2>
            <span className="rounded-full bg-emerald-50 px-3 py-1 text-xs font-semibold text-emerald-800 ring-1 ring-emerald-200">
              Ready to Use
            </span>
          </div>
          <ol className="mt-5 grid gap-5" {...gen("list")} />
        </div>
      </template>
      <template {...gen("card-template")}>
        <li data-testid="email-card" className="rounded-2xl bg-white p-6 ring-1 ring-linen sm:p-8">
          <div className="flex flex-wrap items-center justify-between gap-3">
            <h3 className="font-serif text-xl text-forest">
              Email Template #<span {...gen("number")} />
            </h3>
            <button type="button" className="btn-outline px-4 py-2" data-action="open-editor">
              Edit Template
            </button>
          </div>
          <EmailPart label="Subject" action="copy-subject">
            <p data-testid="email-subject" className="font-medium text-ink" {...gen("subject")} />
          </EmailPart>
          <EmailPart label="Email Body" action="copy-body">
            <p
              data-testid="email-body"
              className="text-sm leading-relaxed whitespace-pre-line text-ink"
              {...gen("body")}
            />
          </EmailPart>
        </li>
      </template>
      <template {...gen("toast-template")}>
        <ToastView kind="success">
          <span {...gen("text")} />
        </ToastView>
      </template>
    </>
  );
}

function EmailPart({ label, action, children }: { label: string; action: string; children: ReactNode }) {
  return (
    <div className="mt-5 rounded-xl bg-sand/60 p-4 ring-1 ring-linen">
      <div className="flex items-center justify-between gap-3">
        <p className="text-xs font-semibold text-mist">{label}</p>
        <button
          type="button"
          data-action={action}
          aria-label={`Copy ${label}`}
          className="inline-flex items-center gap-1.5 rounded-full bg-white px-3 py-1.5 text-xs font-semibold text-forest ring-1 ring-linen hover:bg-forest hover:text-white"
        >
          <svg
            width="14"
            height="14"
            viewBox="0 0 24 24"
            aria-hidden="true"
            fill="none"
            stroke="currentColor"
            strokeWidth="2"
          >
            <rect x="9" y="9" width="11" height="11" rx="2" />
            <path d="M5 15V6a2 2 0 0 1 2-2h9" />
          </svg>
          Copy
        </button>
      </div>
      <div className="mt-2">{children}</div>
    </div>
  );
}
