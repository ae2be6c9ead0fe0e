import { sections, type SectionType } from "#domain/registry.ts";
import { demoContent } from "#server/seed/demo-content.ts";
import type { Services } from "#server/services/index.ts";
import { id, recordRoutes, updated, type ApiRoute, type RouteSample } from "./route";

/** A section's record as a fresh install has it: the sample body of its add and update calls. */
const demoRecord = (type: SectionType) =>
  (demoContent.find((r) => r.type === type)?.data ?? {}) as NonNullable<RouteSample["body"]>;

/**
 * Every editable section's calls, generated from the content registry: the spec's four (list, one, add, update, at
 * its paths), and for curating, a delete at the record's path and, for lists, a reorder at /reorder{list path}.
 */
export function contentRoutes({ content }: Services): ApiRoute[] {
  return sections.flatMap((s): ApiRoute[] => [
    ...recordRoutes({
      paths: s.api,
      what: { list: `${s.title}: list`, one: `${s.title}: one`, add: `${s.title}: add`, update: `${s.title}: update` },
      read: "public",
      area: "content",
      sample: { record: s.type, add: demoRecord(s.type), update: demoRecord(s.type) },
      store: {
        list: () => content.list(s.type),
        get: (recordId) => content.get(s.type, recordId),
        add: async (body, viewer) => (await content.add(s.type, body, viewer)).id,
        update: (recordId, body, viewer) => content.update(s.type, recordId, body, viewer),
      },
    }),
    {
      method: "delete",
      path: s.api.one,
      access: "staff",
      area: "content",
      what: `${s.title}: delete`,
      sample: { ids: { id: s.type } },
      handler: async (req, _res, viewer) => {
        await content.remove(s.type, id(req), viewer);
        return { acknowledged: true, deletedCount: 1 };
      },
    },
    ...(s.cardinality === "list"
      ? [
          {
            method: "put",
            path: `/reorder${s.api.list}`,
            access: "staff",
            area: "content",
            what: `${s.title}: reorder (body {ids: [...]}, every record once, in the new order)`,
            sample: { ids: { ids: [s.type] } },
            handler: async (req, _res, viewer) =>
              updated((await content.reorder(s.type, req.body?.ids, viewer)).modified),
          } satisfies ApiRoute,
        ]
      : []),
  ]);
}
