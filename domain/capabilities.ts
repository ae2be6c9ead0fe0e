import { adminRoles, sentence, type AdminRole } from "./vocabulary";

/**
 * Who on the staff may do what: the one table the back-office pages (app/lib/guards.server.ts) and the REST route
 * table (server/http/routes/) read, and the navigation shows (decision 036). A page or call declares its area; a role
 * opens the areas listed for it here and no other.
 */
export const STAFF_AREAS = [
  "content",
  "media",
  "items",
  "messages",
  "subscribers",
  "orders",
  "customers",
  "reports",
  "payments",
  "users",
  "settings",
  "backups",
  "exports",
  "activity",
] as const;
export type StaffArea = (typeof STAFF_AREAS)[number];

/** A staff role: the admin list's userRole. */
export type StaffRole = AdminRole;
export const staffRoles = adminRoles;

export const ROLE_AREAS: { readonly [R in StaffRole]: readonly StaffArea[] } = {
  Admin: STAFF_AREAS,
  Editor: ["content", "media", "items", "messages"],
};

/** What a role is for, in one sentence (the users screen). */
export const ROLE_SUMMARY: { readonly [R in StaffRole]: string } = {
  Admin: "Everything: orders, payments, staff, settings, backups and exports as well as the site.",
  Editor: `The site's ${sentence(ROLE_AREAS.Editor).replace(" or ", " and ")}; no orders, payments, staff, settings, backups or exports.`,
};

/** Whether a staff role (null or undefined: a customer) may use an area. */
export function can(role: StaffRole | null | undefined, area: StaffArea): boolean {
  return role ? ROLE_AREAS[role].includes(area) : false;
}

/** Who a staff rule looks at: a signed-in person's role and whether their second factor is due (decision 040). */
export interface StaffPerson {
  staffRole?: StaffRole | null;
  isAdmin?: boolean;
  twoFactorDue?: boolean;
  /**
   * An API key's areas (decision 077), for a call made with a key: it holds no role, and opens exactly these areas.
   */
  apiKey?: { areas: readonly StaffArea[] } | null;
}

/**
 * The staff role a person holds (`staffRole`, or `isAdmin` for a viewer made before roles had names), whether or not
 * they may act with it yet: for the doors that send staff whose second factor is due to turn it on.
 */
export function heldStaffRole(viewer: StaffPerson | null): StaffRole | null {
  if (!viewer || viewer.apiKey) return null;
  return viewer.staffRole ?? (viewer.isAdmin ? "Admin" : null);
}

/**
 * The staff role a person acts with: none while their second factor is due (decision 059), so that staff who have not
 * turned it on have no staff powers anywhere, customer pages included, and are answered as the customer they also are.
 */
export function staffRoleOf(viewer: StaffPerson | null): StaffRole | null {
  return viewer?.twoFactorDue ? null : heldStaffRole(viewer);
}

/**
 * Whether whoever asks acts as staff of an area: a person by the role they act with (staffRoleOf), an API key by the
 * areas an Admin gave it (decision 077). The services' own "staff see every record" checks ask this.
 */
export function opens(viewer: StaffPerson | null, area: StaffArea): boolean {
  if (viewer?.apiKey) return viewer.apiKey.areas.includes(area);
  return can(staffRoleOf(viewer), area);
}

/**
 * Where a staff member's back office starts: Today (what needs doing) for those who see orders, the site content
 * otherwise.
 */
export function staffHome(role: StaffRole): string {
  return can(role, "orders") ? "/today" : "/setting";
}
