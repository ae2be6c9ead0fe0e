import { useEffect, useId, useRef, useState } from "react";
import { apiFetch } from "#app/lib/api.ts";
import { formatBytes, MAX_UPLOAD_BYTES, UPLOAD_ACCEPT, type MediaItem } from "#domain/media.ts";
import { tooLargeToSend, uploadImage } from "#app/lib/upload.ts";
import { Modal } from "../Modal";

const PER_PAGE = 12;

/** A library image's thumbnail (lazy, its own size, its colour until it loads), as the picker and the library show it. */
export function MediaThumbnail({ item, className }: { item: MediaItem; className: string }) {
  return (
    <img
      src={item.thumbnail}
      alt={item.alt || item.fileName}
      width={item.width}
      height={item.height}
      loading="lazy"
      className={className}
      style={{ backgroundColor: item.color }}
    />
  );
}

/** One page of the library while the picker is open: its images and page count, or why it could not be read. */
function useLibraryPage(open: boolean, page: number) {
  const [list, setList] = useState<{ items: MediaItem[]; pages: number } | { error: string } | null>(null);
  useEffect(() => {
    if (!open) return;
    let current = true;
    void apiFetch<MediaItem[]>(`/api/media?page=${page}&limit=${PER_PAGE}`).then((answer) => {
      if (!current) return;
      if (answer.ok && Array.isArray(answer.data)) {
        setList({ items: answer.data, pages: Number(answer.headers.get("x-pages") ?? 1) });
      } else setList({ error: (answer.data as { error?: string }).error ?? "The library could not be read." });
    });
    return () => {
      current = false;
    };
  }, [open, page]);
  return list;
}

/** Newer and Older, with where the picker is among the library's pages. */
function LibraryPager({
  page,
  pages,
  setPage,
}: {
  page: number;
  pages: number;
  setPage: (update: (page: number) => number) => void;
}) {
  return (
    <div className="mt-4 flex items-center justify-between text-sm">
      <button
        type="button"
        className="btn-outline px-3 py-1.5 text-xs"
        disabled={page <= 1}
        onClick={() => setPage((p) => p - 1)}
      >
        Newer
      </button>
      <span className="text-mist">
        Page {page} of {pages}
      </span>
      <button
        type="button"
        className="btn-outline px-3 py-1.5 text-xs"
        disabled={page >= pages}
        onClick={() => setPage((p) => p + 1)}
      >
        Older
      </button>
    </div>
  );
}

/**
 * The library in a dialog, opened from an image field: upload in place (with its progress), or pick one of the
 * library's images (newest first, a page at a time). Either way the chosen image goes to `onPick`. Holds no <form>
 * and only type="button" buttons, so that it can live inside the field's own form.
 */
export function MediaPicker({
  open,
  onClose,
  onPick,
}: {
  open: boolean;
  onClose: () => void;
  onPick: (item: MediaItem) => void;
}) {
  const [page, setPage] = useState(1);
  const list = useLibraryPage(open, page);

  return (
    <Modal
      open={open}
      onClose={onClose}
      title="Media library"
      subtitle="Upload a new image or choose one the site already has."
      testId="media-picker"
    >
      <UploadBox onUploaded={onPick} />
      <h3 className="mt-8 text-sm font-semibold text-forest">In the library</h3>
      {list === null ? (
        <p className="mt-3 text-sm text-mist">Loading…</p>
      ) : "error" in list ? (
        <p className="mt-3 text-sm text-red-700" role="alert">
          {list.error}
        </p>
      ) : list.items.length === 0 ? (
        <p className="mt-3 text-sm text-mist">No images yet: upload the first one above.</p>
      ) : (
        <>
          <ul className="mt-3 grid grid-cols-3 gap-3 sm:grid-cols-4" data-testid="media-picker-items">
            {list.items.map((item) => (
              <li key={item._id}>
                <button
                  type="button"
                  onClick={() => onPick(item)}
                  className="group block w-full overflow-hidden rounded-xl ring-1 ring-linen hover:ring-2 hover:ring-clay focus-visible:ring-2 focus-visible:ring-clay"
                  title={item.fileName}
                >
                  <MediaThumbnail item={item} className="aspect-square w-full object-cover" />
                  <span className="block truncate px-2 py-1 text-left text-[11px] text-mist">{item.fileName}</span>
                </button>
              </li>
            ))}
          </ul>
          {list.pages > 1 ? <LibraryPager page={page} pages={list.pages} setPage={setPage} /> : null}
        </>
      )}
    </Modal>
  );
}

/** The upload's state: the chosen file, its alt text, the progress while the bytes leave, and what went wrong. */
function useUpload(onUploaded: (item: MediaItem) => void) {
  const fileRef = useRef<HTMLInputElement>(null);
  const [alt, setAlt] = useState("");
  const [progress, setProgress] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);
  const send = async () => {
    const file = fileRef.current?.files?.[0];
    if (!file) return setError("Choose an image file to upload.");
    const local = tooLargeToSend(file, MAX_UPLOAD_BYTES);
    if (local) return setError(local);
    setError(null);
    setProgress(0);
    const answer = await uploadImage(file, alt, setProgress);
    setProgress(null);
    if (!answer.ok) return setError(answer.error);
    setAlt("");
    if (fileRef.current) fileRef.current.value = "";
    onUploaded(answer.item);
  };
  return { fileRef, alt, setAlt, progress, error, send };
}

/** The upload box's fields, button, progress bar and error, inside the form (or the box) UploadBox draws. */
function UploadFields({
  ids,
  fileRef,
  asForm,
  alt,
  setAlt,
  progress,
  error,
  send,
}: ReturnType<typeof useUpload> & { ids: { file: string; alt: string; error: string }; asForm: boolean }) {
  const busy = progress !== null;
  return (
    <>
      <div className="grid gap-3 sm:grid-cols-2">
        <div>
          <label htmlFor={ids.file} className="field-label">
            Image file
          </label>
          <input
            ref={fileRef}
            id={ids.file}
            type="file"
            name={asForm ? "file" : undefined}
            accept={UPLOAD_ACCEPT}
            className="block w-full text-sm"
            aria-describedby={error ? ids.error : undefined}
            disabled={busy}
          />
          <p className="mt-1 text-xs text-mist">JPEG, PNG, WebP or AVIF, up to {formatBytes(MAX_UPLOAD_BYTES)}.</p>
        </div>
        <div>
          <label htmlFor={ids.alt} className="field-label">
            Alt text
          </label>
          <input
            id={ids.alt}
            name={asForm ? "alt" : undefined}
            className="field-input"
            value={alt}
            maxLength={300}
            onChange={(e) => setAlt(e.currentTarget.value)}
            placeholder="What the picture shows"
            disabled={busy}
          />
        </div>
      </div>
      <div className="mt-3 flex items-center gap-3">
        <button
          type={asForm ? "submit" : "button"}
          className="btn-dark px-4 py-2 text-sm"
          onClick={asForm ? undefined : () => void send()}
          disabled={busy}
        >
          {busy ? "Uploading…" : "Upload"}
        </button>
        {busy ? (
          <progress
            className="h-2 flex-1 accent-clay"
            max={1}
            value={progress}
            aria-label="Upload progress"
            data-testid="upload-progress"
          />
        ) : null}
      </div>
      {error ? (
        <p id={ids.error} role="alert" className="field-error mt-2">
          {error}
        </p>
      ) : null}
    </>
  );
}

/**
 * A file chooser, an alt text and an upload button, with a progress bar while the bytes leave. `asForm` (the library
 * screen) makes it a real multipart form posting to the upload call, so that it works without JavaScript too; inside
 * another form (the picker) it is not one.
 */
export function UploadBox({ onUploaded, asForm = false }: { onUploaded: (item: MediaItem) => void; asForm?: boolean }) {
  const { fileRef, alt, setAlt, progress, error, send } = useUpload(onUploaded);
  const ids = { file: useId(), alt: useId(), error: useId() };
  const body = (
    <UploadFields
      ids={ids}
      fileRef={fileRef}
      asForm={asForm}
      alt={alt}
      setAlt={setAlt}
      progress={progress}
      error={error}
      send={send}
    />
  );
  const className = "rounded-2xl bg-sand/60 p-4";
  if (!asForm) {
    return (
      <div className={className} data-testid="media-upload">
        {body}
      </div>
    );
  }
  return (
    <form
      method="post"
      action="/api/media"
      encType="multipart/form-data"
      className={className}
      data-testid="media-upload"
      onSubmit={(e) => {
        e.preventDefault();
        void send();
      }}
    >
      {body}
    </form>
  );
}
