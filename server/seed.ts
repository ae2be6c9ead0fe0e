import type { Logger } from "./lib/logger";
import type { Services } from "./services";
import { demoContent } from "./seed/demo-content";

/** Fills an empty database with the demo content; an existing site is never touched. */
export async function seedIfEmpty(services: Services, logger: Logger): Promise<boolean> {
  if (!(await services.content.isEmpty())) return false;
  await services.content.insertMany(demoContent);
  logger.info("seeded the demo content", { records: demoContent.length });
  return true;
}
