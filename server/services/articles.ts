import { withDeps } from "#server/lib/with-deps.ts";
import { create, restoreVersion, setState, update } from "./articles/commands.ts";
import { ARTICLE_PUBLISH_QUEUE, type ArticlesServiceDeps } from "./articles/model.ts";
import { authors, get, isEmpty, list, versions } from "./articles/queries.ts";
import { publishDue } from "./articles/schedule.ts";
import { remove, restoreIn } from "./articles/trash.ts";

export {
  ARTICLE_ENTITY,
  ARTICLE_PUBLISH_QUEUE,
  SCHEDULE_ACTOR,
  type ArticleListRow,
  type ArticleRecord,
  type ArticlesServiceDeps,
  type ArticleVersion,
  type StaffAuthor,
} from "./articles/model.ts";

/**
 * Articles (issue 36, part 1): the only writer of `articles`, `article_versions` and `article_slugs`. Every save
 * cleans the body on the server, writes the whole article as a new numbered version and an activity-log entry, in one
 * transaction; a save that touches what the public site shows tells every instance to drop its cached pages (the
 * content change signal). Deleting puts the article, its versions and its old addresses in the trash, whole.
 *
 * The reads are in articles/queries.ts, the writes in articles/commands.ts (their checks in articles/input.ts, the
 * saving of a version in articles/context.ts), the trash's delete and restore in articles/trash.ts, the scheduled
 * publishing in articles/schedule.ts: functions over the same dependencies that this factory only wires (decision 085).
 */
export function createArticlesService(deps: ArticlesServiceDeps) {
  const service = {
    list: withDeps(deps, list),
    get: withDeps(deps, get),
    authors: withDeps(deps, authors),
    create: withDeps(deps, create),
    update: withDeps(deps, update),
    setState: withDeps(deps, setState),
    versions: withDeps(deps, versions),
    restoreVersion: withDeps(deps, restoreVersion),
    remove: withDeps(deps, remove),
    restoreIn: withDeps(deps, restoreIn),
    publishDue: withDeps(deps, publishDue),
    isEmpty: withDeps(deps, isEmpty),
  };
  deps.jobs.worker(ARTICLE_PUBLISH_QUEUE, async () => void (await service.publishDue()), {
    title: "Articles: publish one at its scheduled time",
  });
  return service;
}

export type ArticlesService = ReturnType<typeof createArticlesService>;
