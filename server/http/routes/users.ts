import { heldStaffRole } from "#domain/capabilities.ts";
import type { Services } from "#server/services/index.ts";
import { added, id, recordRoutes, updated, type ApiRoute } from "./route";

/** Who is asking, and the admin list (spec 2: userEmail, userRole). */
export function userRoutes({ adminUsers, staff, twoFactor }: Services): ApiRoute[] {
  return [
    {
      method: "get",
      path: "/me",
      access: "user",
      what: "who am I",
      handler: async (_req, _res, viewer) => ({
        email: viewer.email,
        displayName: viewer.displayName,
        role: heldStaffRole(viewer) ?? "Customer",
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
      read: "staff",
      area: "users",
      // The admin user (spec 2) stays at the address of a confirmed account: the sample moves it to its own.
      sample: {
        record: "admin user",
        add: { userEmail: "chief@example.org", userRole: "Admin" },
        update: { userEmail: "chief@example.org", userRole: "Admin" },
      },
      store: {
        list: () => adminUsers.list(),
        get: (userId) => adminUsers.get(userId),
        add: (body, viewer) => adminUsers.create(body, viewer),
        update: (userId, body, viewer) => adminUsers.update(userId, body, viewer),
      },
    }),
    {
      method: "post",
      path: "/staff-invite",
      access: "staff",
      area: "users",
      what: "invite a staff member (userEmail, userRole): a mail with a link to choose a password",
      sample: { body: { userEmail: "invitee@example.org", userRole: "Editor" } },
      handler: async (req, res, viewer) => added(res, (await staff.invite(req.body, viewer)).id),
    },
    {
      method: "put",
      path: "/users/:id/role",
      access: "staff",
      area: "users",
      what: "change a staff member's role (userRole); the last Admin stays one",
      sample: { ids: { id: "staff member" }, body: { userRole: "Admin" } },
      handler: async (req, _res, viewer) => updated((await adminUsers.setRole(id(req), req.body, viewer)).modified),
    },
    {
      method: "delete",
      path: "/users/:id",
      access: "staff",
      area: "users",
      what: "remove a staff member (not the last Admin)",
      sample: { ids: { id: "staff member" } },
      handler: async (req, _res, viewer) => {
        await adminUsers.remove(id(req), viewer);
        return { acknowledged: true, deletedCount: 1 };
      },
    },
    {
      method: "delete",
      path: "/users/:id/two-factor",
      access: "staff",
      area: "users",
      what: "reset a staff member's two-factor sign-in (a lost phone): their sessions end, they enrol again",
      sample: { ids: { id: "staff member with two-factor" } },
      handler: async (req, _res, viewer) => {
        await twoFactor.resetForStaff(id(req), viewer);
        return { acknowledged: true };
      },
    },
  ];
}
