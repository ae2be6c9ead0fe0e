/**
 * `npm run seed`: fills every section that has no records with the demo content, and an empty catalogue with the demo
 * items. Existing content is never changed, so it is safe on a live site; on an empty database it seeds everything
 * (as the first start does).
 */
import { loadConfig } from "../config";
import { openDatabase } from "../db/open";
import { createLogger } from "../lib/logger";
import { createServices } from "../services";
import { demoCatalogue } from "../seed/demo-catalogue";
import { demoContent } from "../seed/demo-content";
import { seedDemoArticles } from "../seed/demo-articles";
import { withLibraryImages } from "../seed/demo-media";

const config = loadConfig();
const logger = createLogger(config.logLevel);
const opened = await openDatabase(config, logger);
try {
  const services = createServices(opened.database, opened.config, logger);
  const snapshot = await services.content.snapshot();
  const missing = demoContent.filter((r) => snapshot[r.type].length === 0);
  await services.content.insertMany(await withLibraryImages(services.media, missing, logger));
  const types = [...new Set(missing.map((r) => r.type))];
  logger.info(
    types.length
      ? `seeded ${missing.length} demo records into: ${types.join(", ")}`
      : "every section has content; nothing seeded",
  );
  const items = await services.catalogue.seedIfEmpty(demoCatalogue);
  logger.info(items ? `seeded ${items} demo catalogue items` : "the catalogue has items; none seeded");
  const articles = await seedDemoArticles(services.articles, "");
  logger.info(articles ? `seeded ${articles} demo articles` : "the blog has articles; none seeded");
} finally {
  await opened.close();
}
