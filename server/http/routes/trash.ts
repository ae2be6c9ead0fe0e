import { TRASH_KIND, TRASH_KINDS } from "#domain/trash.ts";
import type { Services } from "#server/services/index.ts";
import { id, paged, perPage, updated, type ApiRoute } from "./route";

/**
 * The trash (decision 039): for each kind, its list, a restore and a delete for good, at paths that name the kind, so
 * that each call's area is the area of what it holds (content, items, media). The :id is the deleted record's own id.
 * And "Restore this version" of a content change in the activity log (Admin: the log's area).
 */
export function trashRoutes({ trash, versions }: Services): ApiRoute[] {
  return [
    ...TRASH_KINDS.flatMap((kind): ApiRoute[] => {
      const { area, title } = TRASH_KIND[kind];
      return [
        {
          method: "get",
          path: `/trash/${kind}`,
          access: "staff",
          area,
          what: `trash: ${title.toLowerCase()} deleted in the last 30 days`,
          handler: async (req, res) => {
            const { entries, page } = await trash.list([kind], req.query.page, perPage(req));
            return paged(res, entries, page);
          },
        },
        {
          method: "post",
          path: `/trash/${kind}/:id/restore`,
          access: "staff",
          area,
          what: `trash: restore one of the ${title.toLowerCase()}`,
          sample: { ids: { id: `trashed ${kind}` } },
          handler: async (req, _res, viewer) => {
            const restored = await trash.restore(kind, id(req), viewer);
            return { acknowledged: true, restoredId: restored.recordId };
          },
        },
        {
          method: "delete",
          path: `/trash/${kind}/:id`,
          access: "staff",
          area,
          what: `trash: delete one of the ${title.toLowerCase()} for good`,
          sample: { ids: { id: `trashed ${kind}` } },
          handler: async (req, _res, viewer) => {
            await trash.purge(kind, id(req), viewer);
            return { acknowledged: true, deletedCount: 1 };
          },
        },
      ];
    }),
    {
      method: "post",
      path: "/activity/:id/restore",
      access: "staff",
      area: "activity",
      what: "restore the version of site content an activity-log entry changed (a new change)",
      sample: { ids: { id: "content change" } },
      handler: async (req, _res, viewer) => updated((await versions.restore(id(req), viewer)).modified),
    },
  ];
}
