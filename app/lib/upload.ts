import { UPLOAD_MESSAGES, type MediaItem } from "#domain/media.ts";

/**
 * Sends one image to the library (POST /api/media, multipart) and reports its progress (0 to 1) as the bytes leave:
 * XMLHttpRequest, because fetch cannot tell upload progress. Never throws: the answer says what happened.
 */
export function uploadImage(
  file: File,
  alt: string,
  onProgress: (fraction: number) => void,
): Promise<{ ok: true; item: MediaItem } | { ok: false; error: string }> {
  return new Promise((resolve) => {
    const xhr = new XMLHttpRequest();
    xhr.open("POST", "/api/media");
    xhr.setRequestHeader("accept", "application/json");
    xhr.responseType = "json";
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable) onProgress(e.loaded / e.total);
    };
    xhr.onload = () => {
      const body = (xhr.response ?? {}) as { item?: MediaItem; error?: string };
      if (xhr.status >= 200 && xhr.status < 300 && body.item) resolve({ ok: true, item: body.item });
      else resolve({ ok: false, error: body.error ?? `The upload failed (${xhr.status}). Please try again.` });
    };
    xhr.onerror = () => resolve({ ok: false, error: "The upload could not reach the server. Check the connection." });
    const form = new FormData();
    form.set("alt", alt);
    form.set("file", file);
    xhr.send(form);
  });
}

/** The size check the server makes, told before a single byte is sent. */
export const tooLargeToSend = (file: File, max: number) => (file.size > max ? UPLOAD_MESSAGES.tooLarge : null);
