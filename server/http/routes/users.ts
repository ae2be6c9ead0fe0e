import type { Services } from "../../services";
import { recordRoutes, type ApiRoute } from "./route";

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
    ...recordRoutes({
      paths: { list: "/users", one: "/users/:id", add: "/add-user", update: "/upadete-users/:id" },
      what: {
        list: "admin users",
        one: "one admin user",
        add: "add the admin user",
        update: "update the admin user",
      },
      read: "admin",
      store: {
        list: () => adminUsers.list(),
        get: (userId) => adminUsers.get(userId),
        add: (body, viewer) => adminUsers.create(body, viewer),
        update: (userId, body, viewer) => adminUsers.update(userId, body, viewer),
      },
    }),
  ];
}
