import type { Logger } from "./lib/logger";
import type { Services } from "./services";
import { demoCatalogue } from "./seed/demo-catalogue";
import { demoContent } from "./seed/demo-content";
import { withLibraryImages } from "./seed/demo-media";

/**
 * Fills an empty database with the demo content and the demo catalogue (one generator per category, so a new member
 * can generate at once); an existing site is never touched.
 */
export async function seedIfEmpty(services: Services, logger: Logger): Promise<boolean> {
  if (!(await services.content.isEmpty())) return false;
  await services.content.insertMany(await withLibraryImages(services.media, demoContent, logger));
  const items = await services.catalogue.seedIfEmpty(demoCatalogue);
  logger.info({ records: demoContent.length, catalogueItems: items }, "seeded the demo content");
  return true;
}
