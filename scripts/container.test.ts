import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

/**
 * Issue 38, part 5, read from the files (no container engine runs in CI; tests/e2e/container-start.test.ts runs the
 * image's start command): images pinned to a release, the image built from the lock as a non-root user with a health
 * check and version labels, and a release workflow that builds it from a v* tag.
 */
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const read = (file: string) => readFileSync(path.join(ROOT, file), "utf8");
/** A release's exact tag (17.6-bookworm, 2.10.2-alpine), optionally with its digest: never `latest` or a major alone. */
const PINNED = /^[\w./-]+:\d+\.\d+(\.\d+)?(-[\w.-]+)?(@sha256:[0-9a-f]{64})?$/;

describe("the container files", () => {
  it("compose.yaml pins PostgreSQL and Caddy to a release", () => {
    const images = [...read("compose.yaml").matchAll(/^ {4}image: (\S+)$/gm)].map((m) => m[1]!);
    const others = images.filter((i) => !i.startsWith("${APP_IMAGE"));
    expect(others.map((i) => i.split(":")[0])).toEqual(["postgres", "caddy"]);
    for (const image of others) expect(image).toMatch(PINNED);
    expect("postgres:17").not.toMatch(PINNED);
    expect("caddy:latest").not.toMatch(PINNED);
  });

  it("the Dockerfile installs from the lock, pins Node, runs as node with a health check and version labels", () => {
    const dockerfile = read("Dockerfile").replace(/\\\n\s*/g, " ");
    expect(/^ARG NODE_IMAGE=(\S+)$/m.exec(dockerfile)?.[1]).toMatch(PINNED);
    expect(dockerfile).not.toMatch(/npm install/);
    const runtime = dockerfile.slice(dockerfile.lastIndexOf("\nFROM "));
    expect(runtime).toMatch(/^FROM \$\{NODE_IMAGE\} AS runtime$/m);
    expect(runtime).toMatch(/^USER node$/m);
    expect(runtime).toMatch(/^HEALTHCHECK .*\/healthz/m);
    for (const [label, arg] of [
      ["version", "VERSION"],
      ["revision", "SOURCE_COMMIT"],
      ["source", "SOURCE_URL"],
      ["created", "CREATED"],
    ])
      expect(runtime).toContain(`org.opencontainers.image.${label}="\${${arg}}"`);
    // The build names its commit from the build argument (.git is not copied in: .dockerignore).
    const build = dockerfile.slice(dockerfile.indexOf("AS build"), dockerfile.indexOf("AS tools"));
    expect(build).toMatch(/^RUN npm ci /m);
    expect(build).toMatch(/^ARG SOURCE_COMMIT=$/m);
    expect(build).toMatch(/SOURCE_COMMIT="\$\{SOURCE_COMMIT\}" npm run build/);
    expect(read(".dockerignore")).toMatch(/^\.git$/m);
  });

  it("the release workflow builds and pushes the image from a v* tag, labelled with its version", () => {
    const workflow = read(".github/workflows/release.yml");
    expect(workflow).toMatch(/^on:\n {2}push:\n {4}tags: \["v\*"\]$/m);
    expect(workflow).toMatch(/uses: docker\/build-push-action@v\d+/);
    expect(workflow).toMatch(/type=image,push=true,rewrite-timestamp=true/);
    expect(workflow).toContain("ghcr.io/${GITHUB_REPOSITORY,,}");
    for (const arg of ["VERSION=", "SOURCE_COMMIT=${{ github.sha }}", "SOURCE_DATE_EPOCH=", "NODE_IMAGE="])
      expect(workflow).toContain(arg);
    expect(workflow).toContain("SOURCE_DATE_EPOCH: ${{ steps.release.outputs.epoch }}");
    expect(workflow).not.toMatch(/\t/);
  });
});
