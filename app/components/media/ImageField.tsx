import { lazy, Suspense, useRef, useState } from "react";
import { mediaUrl, parseMediaUrl, type MediaItem } from "#domain/media.ts";
import { parseVideoId } from "#domain/video.ts";
import { useFieldState } from "../ActionForm";
import { TextField } from "../forms";
import { useMediaInfo } from "./ContentImage";

// The library's picker (its grid, upload and modal) loads when it is first opened, not with every content editor.
const MediaPicker = lazy(() => import("./MediaPicker").then((m) => ({ default: m.MediaPicker })));

/** Sets an input's value as typing would, so that React and the form both hear of it. */
function fill(input: HTMLInputElement, value: string) {
  Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, "value")!.set!.call(input, value);
  input.dispatchEvent(new Event("input", { bubbles: true }));
  input.dispatchEvent(new Event("change", { bubbles: true }));
}

/**
 * An image field of the registry (kinds "image" and "media"): the address as text (a typed URL keeps working), a
 * thumbnail of what it points to, and a button that opens the library to upload or choose an image, which fills it.
 */
export function ImageField({
  label,
  name,
  required,
  kind,
  className,
}: {
  label: string;
  name: string;
  required: boolean;
  kind: "image" | "media";
  className?: string;
}) {
  const state = useFieldState(name);
  const box = useRef<HTMLDivElement>(null);
  const [picked, setPicked] = useState<MediaItem | null>(null);
  const [open, setOpen] = useState(false);
  // What the field holds, for its preview; a reset or reloaded form (a new Conform key) starts again from its value.
  const [typed, setTyped] = useState({ key: state?.key, value: state?.defaultValue ?? "" });
  if (typed.key !== state?.key) setTyped({ key: state?.key, value: state?.defaultValue ?? "" });
  const setValue = (value: string) => setTyped({ key: state?.key, value });
  const value = typed.value;
  return (
    <div className={className} ref={box}>
      <div className="flex items-start gap-4">
        <Preview value={value} picked={picked} />
        <div className="min-w-0 flex-1">
          <TextField
            label={label}
            name={name}
            required={required}
            type="text"
            inputMode="url"
            placeholder={
              kind === "media" ? "Choose an image, or paste a video or image link" : "Choose an image, or paste a link"
            }
            onInput={(e) => setValue(e.currentTarget.value)}
          />
          <button
            type="button"
            className="btn-outline mt-2 px-3 py-1.5 text-xs"
            onClick={() => setOpen(true)}
            data-testid={`pick-${name}`}
          >
            Choose from library
          </button>
        </div>
      </div>
      {open ? (
        <Suspense fallback={<span role="status">Opening the library…</span>}>
          <MediaPicker
            open
            onClose={() => setOpen(false)}
            onPick={(item) => {
              const field = box.current?.querySelector<HTMLInputElement>("input[type=text]");
              if (field) fill(field, item.url);
              setPicked(item);
              setOpen(false);
            }}
          />
        </Suspense>
      ) : null}
    </div>
  );
}

/** What the field points to, small: a library image's smallest file, a typed image URL as it is, or a video mark. */
function Preview({ value, picked }: { value: string; picked: MediaItem | null }) {
  const info = useMediaInfo(value);
  const library = parseMediaUrl(value);
  const box =
    "flex h-20 w-20 shrink-0 items-center justify-center overflow-hidden rounded-xl bg-sand ring-1 ring-linen";
  if (!value.trim()) return <span className={`${box} text-[11px] text-mist`}>No image</span>;
  if (parseVideoId(value)) return <span className={`${box} text-[11px] text-mist`}>Video link</span>;
  const known = picked && library?.key === picked.key ? picked : info;
  // The pages' policy loads images from this site and https addresses only.
  const loadable = /^(\/(?![/\\])|https:\/\/)/.test(value);
  if (!known && !loadable) return <span className={`${box} text-[11px] text-mist`}>No preview</span>;
  const src = known ? mediaUrl(known.key, known.widths[0]!, known.svg ? "svg" : "webp") : value;
  return (
    <span className={box}>
      <img
        src={src}
        alt={known?.alt ? `Preview: ${known.alt}` : "Preview"}
        width={80}
        height={80}
        className="h-full w-full object-cover"
        style={known ? { backgroundColor: known.color } : undefined}
        data-testid="image-preview"
      />
    </span>
  );
}
