import { existsSync, readFileSync } from "node:fs";
import path from "node:path";

/**
 * The map from each image shipped under public/ (`/images/x.svg`) to its content-hashed copy (`/assets/x-<hash>.svg`,
 * cached a year), written by scripts/hash-images.mjs; empty in development and API-only tests (no build).
 */
export function loadStaticImages(clientDir: string): Readonly<Record<string, string>> {
  const file = path.join(clientDir, "static-images.json");
  if (!existsSync(file)) return {};
  const parsed: unknown = JSON.parse(readFileSync(file, "utf8"));
  if (typeof parsed !== "object" || parsed === null) return {};
  return Object.fromEntries(
    Object.entries(parsed).filter(
      (e): e is [string, string] =>
        e[0].startsWith("/images/") && typeof e[1] === "string" && e[1].startsWith("/assets/"),
    ),
  );
}
