/** The browser's one way to call our JSON API: same origin, JSON in and out, never throws on an HTTP error. */
export async function apiFetch<T = unknown>(
  path: string,
  init: { method?: string; json?: unknown } = {},
): Promise<{ ok: boolean; status: number; data: T | { error?: string }; headers: Headers }> {
  const res = await fetch(path, {
    method: init.method ?? "GET",
    credentials: "same-origin",
    headers:
      init.json !== undefined
        ? { "content-type": "application/json", accept: "application/json" }
        : { accept: "application/json" },
    body: init.json !== undefined ? JSON.stringify(init.json) : undefined,
  });
  const data = (await res.json().catch(() => ({}))) as T | { error?: string };
  return { ok: res.ok, status: res.status, data, headers: res.headers };
}
