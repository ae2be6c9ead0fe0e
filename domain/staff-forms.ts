import { z } from "zod";
import { emailAddress } from "./fields";
import { adminRoles } from "./vocabulary";

const role = z.enum(adminRoles.values, { error: `Choose a role: ${adminRoles.sentence()}` });

/** Inviting a staff member (the users screen and POST /api/staff-invite). */
export const inviteSchema = z.object({
  userEmail: emailAddress("Email").transform((v) => v.toLowerCase()),
  userRole: role,
});

/** A change of role (the users screen and PUT /api/users/:id/role). */
export const roleSchema = z.object({ userRole: role });
