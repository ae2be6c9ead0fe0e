import { describe, expect, it } from "vitest";
import type { Viewer } from "../services/accounts";
import { admit } from "./guards";

const person = (isAdmin: boolean): Viewer => ({
  id: "u1",
  email: "a@example.org",
  name: "",
  displayName: "a",
  emailVerified: true,
  isAdmin,
});

describe("admit", () => {
  it("refuses a signed-out caller with 401, whatever the access", () => {
    for (const access of ["user", "admin"] as const)
      expect(admit(access, null)).toEqual({ refused: { status: 401, error: "Sign in to use this call." } });
  });
  it("refuses a customer an admin call with 403", () => {
    expect(admit("admin", person(false))).toEqual({
      refused: { status: 403, error: "You don't have any permission" },
    });
  });
  it("admits a customer to user calls and an admin to both", () => {
    expect(admit("user", person(false))).toEqual({ viewer: person(false) });
    expect(admit("user", person(true))).toEqual({ viewer: person(true) });
    expect(admit("admin", person(true))).toEqual({ viewer: person(true) });
  });
});
