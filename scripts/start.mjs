#!/usr/bin/env node
// `npm start`: build when the sources changed since the last build (or there is none), then serve.
import { spawnSync } from "node:child_process";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { ROOT, buildIsCurrent } from "./build-state.mjs";
import { UNKNOWN_COMMIT, sourceCommit, writeVersionFile } from "./version.mjs";

if (buildIsCurrent()) {
  console.log("build is up to date with the sources; starting it");
  // A commit that changed nothing the build makes (documentation, tests) still names the version that runs; where git
  // cannot tell (no .git), the commit the build was given stays.
  if (sourceCommit() !== UNKNOWN_COMMIT) writeVersionFile();
} else {
  console.log("building (the sources changed since the last build, or there is none)");
  const res = spawnSync("npm", ["run", "build", "--silent"], { cwd: ROOT, stdio: "inherit" });
  if (res.status !== 0) process.exit(res.status ?? 1);
}
// React and React DOM pick their development or production build from NODE_ENV when first loaded, which is before
// the server's own code runs: unset, every page rendered with the development build (several times slower).
process.env.NODE_ENV ??= "production";
await import(pathToFileURL(path.join(ROOT, "build/server/main.js")).href);
