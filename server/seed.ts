import type { Logger } from "./lib/logger";
import type { Services } from "./services";
import { demoCatalogue } from "./seed/demo-catalogue";
import { demoContent } from "./seed/demo-content";
import { seedDemoArticles } from "./seed/demo-articles";
import { withLibraryImages } from "./seed/demo-media";

/**
 * Fills an empty database with the demo content and the demo catalogue (one generator per category, so a new member
 * can generate at once); an existing site is never touched.
 */
export async function seedIfEmpty(services: Services, logger: Logger): Promise<boolean> {
  if (!(await services.content.isEmpty())) return false;
  const records = await withLibraryImages(services.media, demoContent, logger);
  await services.content.insertMany(records);
  const items = await services.catalogue.seedIfEmpty(demoCatalogue);
  // The blog's demo articles, the first with a library photograph as its cover (the banner's, once in the library).
  const photo = records
    .flatMap((r) => Object.values(r.data))
    .find((v) => typeof v === "string" && /^\/media\/.+\.(png|webp|avif|jpe?g)$/.test(v));
  await seedDemoArticles(services.articles, typeof photo === "string" ? photo : "");
  logger.info({ records: demoContent.length, catalogueItems: items }, "seeded the demo content");
  return true;
}
