import type { Services } from "../../services";
import { added, id, updated, type ApiRoute } from "./route";

/** Who is asking, and the admin list (spec 2: userEmail, userRole). */
export function userRoutes({ adminUsers }: Services): ApiRoute[] {
  return [
    {
      method: "get",
      path: "/me",
      access: "user",
      what: "who am I",
      handler: async (_req, _res, viewer) => ({
        email: viewer.email,
        displayName: viewer.displayName,
        role: viewer.isAdmin ? "Admin" : "Customer",
        emailVerified: viewer.emailVerified,
      }),
    },
    { method: "get", path: "/users", access: "admin", what: "admin users", handler: () => adminUsers.list() },
    {
      method: "get",
      path: "/users/:id",
      access: "admin",
      what: "one admin user",
      handler: (req) => adminUsers.get(id(req)),
    },
    {
      method: "post",
      path: "/add-user",
      access: "admin",
      what: "add the admin user",
      handler: async (req, res, viewer) => added(res, await adminUsers.create(req.body, viewer)),
    },
    {
      method: "put",
      path: "/upadete-users/:id",
      access: "admin",
      what: "update the admin user",
      handler: async (req, _res, viewer) => updated((await adminUsers.update(id(req), req.body, viewer)).modified),
    },
  ];
}
