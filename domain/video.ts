/**
 * The banner's video-link rule (spec 1, section 2): a YouTube link in its watch, embed, shorts or short-link
 * form, carrying an 11-character video id, shows a player; anything else is treated as an image.
 */
const ID = /^[A-Za-z0-9_-]{11}$/;
const HOSTS = new Set([
  "youtube.com",
  "www.youtube.com",
  "m.youtube.com",
  "youtube-nocookie.com",
  "www.youtube-nocookie.com",
]);

export function parseVideoId(value: string | null | undefined): string | null {
  if (!value) return null;
  let url: URL;
  try {
    url = new URL(value.trim());
  } catch {
    return null;
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") return null;
  const host = url.hostname.toLowerCase();
  const parts = url.pathname.split("/").filter(Boolean);
  let id: string | null = null;
  if (host === "youtu.be" || host === "www.youtu.be") {
    id = parts.length === 1 ? parts[0]! : null;
  } else if (HOSTS.has(host)) {
    if (parts.length === 1 && parts[0] === "watch") id = url.searchParams.get("v");
    else if (parts.length === 2 && (parts[0] === "embed" || parts[0] === "shorts")) id = parts[1]!;
  }
  return id && ID.test(id) ? id : null;
}

/** The privacy-friendly embed address for a video id. */
export function embedUrl(id: string): string {
  return `https://www.youtube-nocookie.com/embed/${id}?rel=0`;
}

/** The video's own page on YouTube (where the team video's poster leads: it plays there, no script of ours needed). */
export function watchUrl(id: string): string {
  return `https://www.youtube.com/watch?v=${id}`;
}
