import { describe, expect, it } from "vitest";
import { can, heldStaffRole, staffRoleOf } from "./capabilities";

describe("staffRoleOf: the role a person acts with (decision 059)", () => {
  it("is the role held, and none while the second factor is due", () => {
    expect(staffRoleOf({ staffRole: "Admin", isAdmin: true })).toBe("Admin");
    expect(staffRoleOf({ staffRole: "Editor", isAdmin: false, twoFactorDue: false })).toBe("Editor");
    expect(staffRoleOf({ staffRole: "Admin", isAdmin: false, twoFactorDue: true })).toBeNull();
    expect(staffRoleOf({ staffRole: "Editor", isAdmin: false, twoFactorDue: true })).toBeNull();
    expect(staffRoleOf({ staffRole: null, isAdmin: false })).toBeNull();
    expect(staffRoleOf(null)).toBeNull();
    expect(can(staffRoleOf({ staffRole: "Admin", twoFactorDue: true }), "orders")).toBe(false);
  });

  it("heldStaffRole keeps the role held, for the doors that send them to turn the second factor on", () => {
    expect(heldStaffRole({ staffRole: "Admin", isAdmin: false, twoFactorDue: true })).toBe("Admin");
    expect(heldStaffRole({ isAdmin: true })).toBe("Admin");
    expect(heldStaffRole(null)).toBeNull();
  });
});
