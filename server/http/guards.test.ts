import { describe, expect, it } from "vitest";
import type { Viewer } from "../services/accounts";
import { TWO_FACTOR_MESSAGES } from "#domain/two-factor.ts";
import { admit, bearerOf, keyViewer } from "./guards";

const person = (isAdmin: boolean, staffRole: Viewer["staffRole"] = isAdmin ? "Admin" : null): Viewer => ({
  id: "u1",
  email: "a@example.org",
  name: "",
  displayName: "a",
  emailVerified: true,
  staffRole,
  isAdmin,
  twoFactorEnabled: true,
  twoFactorDue: false,
});

describe("admit", () => {
  it("refuses a signed-out caller with 401, whatever the access", () => {
    for (const access of ["user", "staff"] as const)
      expect(admit(access, null)).toEqual({ refused: { status: 401, error: "Sign in to use this call." } });
  });
  it("refuses a customer an admin call with 403", () => {
    expect(admit("staff", person(false), "content")).toEqual({
      refused: { status: 403, error: "You don't have any permission" },
    });
  });
  it("admits a customer to user calls and an admin to both", () => {
    expect(admit("user", person(false))).toEqual({ viewer: person(false) });
    expect(admit("user", person(true))).toEqual({ viewer: person(true) });
    expect(admit("staff", person(true), "orders")).toEqual({ viewer: person(true) });
  });
  it("admits an Editor to the areas of the role only, and refuses them the customer calls of other areas", () => {
    const editor = person(false, "Editor");
    const refused = { refused: { status: 403, error: "You don't have any permission" } };
    expect(admit("staff", editor, "content")).toEqual({ viewer: editor });
    expect(admit("staff", editor, "items")).toEqual({ viewer: editor });
    for (const area of ["orders", "payments", "users", "settings", "backups", "exports", "subscribers"] as const)
      expect(admit("staff", editor, area)).toEqual(refused);
    expect(admit("user", editor, "orders")).toEqual(refused);
    expect(admit("user", editor)).toEqual({ viewer: editor });
    expect(admit("user", person(false), "orders")).toEqual({ viewer: person(false) });
  });
  it("refuses staff who must still turn on two-factor sign-in every staff call, saying what to do", () => {
    const due = { ...person(true), twoFactorEnabled: false, twoFactorDue: true };
    const refused = { refused: { status: 403, error: TWO_FACTOR_MESSAGES.required } };
    expect(admit("staff", due, "orders")).toEqual(refused);
    expect(admit("user", due, "orders")).toEqual(refused);
    expect(admit("staff", { ...due, staffRole: "Editor", isAdmin: false }, "content")).toEqual(refused);
    // Their own customer calls (no area) still answer: the requirement is the back office's.
    expect(admit("user", due)).toEqual({ viewer: due });
  });
});

describe("a Bearer request (decision 077)", () => {
  it("is told by its Authorization header's scheme, the token kept whole", () => {
    const req = (authorization?: string) => ({ headers: authorization === undefined ? {} : { authorization } });
    expect(bearerOf(req("Bearer atl_abc_def"))).toBe("atl_abc_def");
    expect(bearerOf(req("bearer   atl_x  "))).toBe("atl_x");
    expect(bearerOf(req("Bearer"))).toBe("");
    expect(bearerOf(req("Basic dTpw"))).toBeNull();
    expect(bearerOf(req())).toBeNull();
  });

  it("runs as a viewer of no role, named for the log, that sees every order only with the orders area", () => {
    const key = {
      id: "k1",
      publicId: "0123456789ab",
      name: "Books",
      areas: ["orders"] as const,
      access: "read" as const,
    };
    const viewer = keyViewer({ ...key, areas: [...key.areas] });
    expect(viewer).toMatchObject({ id: "api-key:k1", email: "API key “Books” (atl_0123456789ab…)", staffRole: null });
    expect(viewer.isAdmin).toBe(true);
    expect(keyViewer({ ...key, areas: ["content"] }).isAdmin).toBe(false);
  });
});
