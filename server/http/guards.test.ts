import { describe, expect, it } from "vitest";
import type { Viewer } from "../services/accounts";
import { admit } from "./guards";

const person = (isAdmin: boolean, staffRole: Viewer["staffRole"] = isAdmin ? "Admin" : null): Viewer => ({
  id: "u1",
  email: "a@example.org",
  name: "",
  displayName: "a",
  emailVerified: true,
  staffRole,
  isAdmin,
});

describe("admit", () => {
  it("refuses a signed-out caller with 401, whatever the access", () => {
    for (const access of ["user", "admin"] as const)
      expect(admit(access, null)).toEqual({ refused: { status: 401, error: "Sign in to use this call." } });
  });
  it("refuses a customer an admin call with 403", () => {
    expect(admit("admin", person(false), "content")).toEqual({
      refused: { status: 403, error: "You don't have any permission" },
    });
  });
  it("admits a customer to user calls and an admin to both", () => {
    expect(admit("user", person(false))).toEqual({ viewer: person(false) });
    expect(admit("user", person(true))).toEqual({ viewer: person(true) });
    expect(admit("admin", person(true), "orders")).toEqual({ viewer: person(true) });
  });
  it("admits an Editor to the areas of the role only, and refuses them the customer calls of other areas", () => {
    const editor = person(false, "Editor");
    const refused = { refused: { status: 403, error: "You don't have any permission" } };
    expect(admit("admin", editor, "content")).toEqual({ viewer: editor });
    expect(admit("admin", editor, "items")).toEqual({ viewer: editor });
    for (const area of ["orders", "payments", "users", "settings", "backups", "exports", "subscribers"] as const)
      expect(admit("admin", editor, area)).toEqual(refused);
    expect(admit("user", editor, "orders")).toEqual(refused);
    expect(admit("user", editor)).toEqual({ viewer: editor });
    expect(admit("user", person(false), "orders")).toEqual({ viewer: person(false) });
  });
});
