// `npm run docs:config`: writes docs/configuration.md from server/config-docs.ts (a unit test fails while it is stale).
import { writeFileSync } from "node:fs";
import { configurationMarkdown } from "#server/config-docs.ts";

writeFileSync("docs/configuration.md", await configurationMarkdown());
process.stdout.write("docs/configuration.md written\n");
