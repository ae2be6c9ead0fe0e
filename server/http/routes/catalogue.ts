import type { Services } from "#server/services/index.ts";
import { added, id, type ApiRoute } from "./route";

/**
 * The catalogue (specs 1 and 2, section 7), in the {success, data} envelope except /add-item. The session decides who
 * may see an item; ?email= is accepted and ignored.
 */
export function catalogueRoutes({ catalogue }: Services): ApiRoute[] {
  return [...itemReadRoutes(catalogue), ...itemEditRoutes(catalogue)];
}

/** The items and their templates, as the viewer may see them. */
function itemReadRoutes(catalogue: Services["catalogue"]): ApiRoute[] {
  return [
    {
      method: "get",
      path: "/all-database",
      access: "user",
      area: "items",
      envelope: true,
      what: "catalogue items",
      handler: async (_req, _res, viewer) => (await catalogue.list(viewer)).items,
    },
    {
      method: "get",
      path: "/database/:id",
      access: "user",
      area: "items",
      envelope: true,
      what: "one item (members and admins)",
      handler: (req, _res, viewer) => catalogue.get(viewer, id(req)),
    },
    {
      method: "get",
      path: "/database/:id/templates",
      access: "user",
      area: "items",
      envelope: true,
      what: "an item's templates (members and admins)",
      handler: (req, _res, viewer) => catalogue.templatesFor(viewer, id(req)),
    },
  ];
}

/** The admin's edits of the items. */
function itemEditRoutes(catalogue: Services["catalogue"]): ApiRoute[] {
  return [
    {
      method: "post",
      path: "/add-database",
      access: "staff",
      area: "items",
      envelope: true,
      what: "add an item",
      sample: {
        body: {
          itemName: "Web design leads",
          itemsDescription: "Studios",
          itemDatabaseUrl: "web-design",
          itemsGuideline: "Be brief",
        },
      },
      handler: async (req, res, viewer) => {
        const item = await catalogue.add(viewer, req.body);
        res.status(201);
        return item;
      },
    },
    {
      method: "put",
      path: "/database/:id",
      access: "staff",
      area: "items",
      envelope: true,
      what: "update an item",
      sample: {
        ids: { id: "item" },
        body: {
          itemName: "SEO leads",
          itemsDescription: "Shops",
          itemDatabaseUrl: "seo-service",
          itemsGuideline: "Be brief",
        },
      },
      handler: (req, _res, viewer) => catalogue.update(viewer, id(req), req.body),
    },
    {
      method: "delete",
      path: "/database/:id",
      access: "staff",
      area: "items",
      envelope: true,
      what: "delete an item",
      sample: { ids: { id: "item" } },
      handler: async (req, _res, viewer) => {
        await catalogue.remove(viewer, id(req));
        return { _id: id(req) };
      },
    },
    {
      method: "post",
      path: "/add-item",
      access: "staff",
      area: "items",
      what: "add a simple item",
      sample: {
        body: {
          format: "Facebook",
          canvaLink: "https://www.canva.com/design/x",
          imageLink: "https://example.com/a.png",
          category: "web-design",
          freeOrPaid: "Paid",
        },
      },
      handler: async (req, res, viewer) => added(res, (await catalogue.addSimpleItem(viewer, req.body))._id),
    },
  ];
}
