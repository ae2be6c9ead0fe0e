import { describe, expect, it } from "vitest";
import { apiKeyInputSchema, keyActorName, keyRefusal, publicIdOf, type KeyGrant } from "./api-keys";
import { heldStaffRole, opens, staffRoleOf } from "./capabilities";
import { parseWith } from "./validation";

const KEY = `atl_0123456789ab_${"A".repeat(40)}-_x`;
const reader: KeyGrant = { areas: ["orders"], access: "read" };
const writer: KeyGrant = { areas: ["orders", "content"], access: "write" };

describe("an API key's form", () => {
  it("is atl_, a 12-hex public id and a 43-character secret; anything else names no key", () => {
    expect(publicIdOf(KEY)).toBe("0123456789ab");
    for (const bad of ["", "atl_", KEY.slice(0, -1), `${KEY}x`, KEY.replace("atl_", "atk_"), KEY.toUpperCase()])
      expect(publicIdOf(bad), bad).toBeNull();
    expect(keyActorName("Zapier", "0123456789ab")).toBe("API key “Zapier” (atl_0123456789ab…)");
  });

  it("takes a name, one or more staff areas (in the areas' order) and read or write", () => {
    const ok = parseWith(apiKeyInputSchema, { name: " Books ", areas: ["reports", "orders"], access: "read" });
    expect(ok).toEqual({ ok: true, data: { name: "Books", areas: ["orders", "reports"], access: "read" } });
    // A form posts one ticked box as a string.
    expect(parseWith(apiKeyInputSchema, { name: "B", areas: "orders", access: "write" }).ok).toBe(true);
    const bad = parseWith(apiKeyInputSchema, { name: "", areas: [], access: "all" });
    expect(bad.ok ? [] : bad.errors.map((e) => e.field)).toEqual(["name", "areas", "access"]);
  });
});

describe("keyRefusal: a key is admitted as a staff member of its areas", () => {
  it("opens the calls of its areas, and refuses another area with 403 naming it", () => {
    expect(keyRefusal(reader, { access: "staff", area: "orders", method: "GET" })).toBeNull();
    expect(keyRefusal(reader, { access: "user", area: "orders", method: "HEAD" })).toBeNull();
    const refused = keyRefusal(reader, { access: "staff", area: "customers", method: "GET" });
    expect(refused).toMatchObject({ status: 403, area: "customers" });
    expect(refused?.error).toContain("customers");
  });

  it("reads only when read-only, on every call, public ones included", () => {
    expect(keyRefusal(reader, { access: "staff", area: "orders", method: "PUT" })?.error).toContain("read-only");
    expect(keyRefusal(reader, { access: "public", method: "POST" })?.error).toContain("read-only");
    expect(keyRefusal(reader, { access: "public", method: "GET" })).toBeNull();
    expect(keyRefusal(writer, { access: "staff", area: "content", method: "DELETE" })).toBeNull();
    expect(keyRefusal(writer, { access: "public", method: "POST" })).toBeNull();
  });

  it("never makes a call that needs a person: customers' own calls without an area, and those marked noKeys", () => {
    expect(keyRefusal(writer, { access: "user", method: "GET" })?.error).toContain("person");
    expect(keyRefusal(writer, { access: "user", area: "orders", method: "POST", noKeys: true })?.error).toContain(
      "person",
    );
  });
});

describe("opens: the services' staff check, for people and keys", () => {
  it("a key opens exactly its areas and holds no role", () => {
    const key = { staffRole: null, isAdmin: true, apiKey: { areas: ["orders"] as const } };
    expect(opens(key, "orders")).toBe(true);
    expect(opens(key, "items")).toBe(false);
    expect(heldStaffRole(key)).toBeNull();
    expect(staffRoleOf(key)).toBeNull();
    expect(opens({ staffRole: "Editor" }, "items")).toBe(true);
    expect(opens({ staffRole: "Editor" }, "orders")).toBe(false);
    expect(opens({ staffRole: "Admin", twoFactorDue: true }, "orders")).toBe(false);
    expect(opens(null, "orders")).toBe(false);
  });
});
