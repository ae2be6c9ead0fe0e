import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { personKeyEndings } from "./rate-limit";

describe("personKeyEndings: the stored keys that are a person's (decision 086)", () => {
  it("matches their id and each address after the rule's name, and each address ending a network pair", () => {
    const endings = personKeyEndings({ userId: "u1", emails: ["ada@example.org", "old@example.org"], names: [] });
    expect(endings).toEqual([":u1", ":ada@example.org", ":old@example.org", "|ada@example.org", "|old@example.org"]);
    const keys = [
      "sign-in:email-failures:ada@example.org",
      "sign-in:ip-email-failures:203.0.113.9|old@example.org",
      "account-delete:failures:u1",
      "sign-in:ip:203.0.113.9",
      "reset:email:bada@example.org",
      "account-delete:failures:u10",
    ];
    expect(keys.filter((k) => endings.some((e) => k.endsWith(e)))).toEqual(keys.slice(0, 3));
  });

  it("matches an address too long to store by its hash, as the store keeps it", () => {
    const long = `${"a".repeat(195)}@example.org`;
    const hash = createHash("sha256").update(long).digest("hex");
    expect(personKeyEndings({ userId: "u1", emails: [long], names: [] })).toContain(`:${hash}`);
  });
});
