import { describe, expect, it } from "vitest";
import { parseWith } from "./validation";
import { credentialsSchema, MESSAGES } from "./account-forms";

const first = (input: unknown) => {
  const r = parseWith(credentialsSchema, input);
  return r.ok ? null : r.errors.map((e) => `${e.field}: ${e.message}`);
};

describe("login and register rules", () => {
  it("accepts a valid pair and lower-cases the email", () => {
    expect(parseWith(credentialsSchema, { email: " Ana@Example.org ", password: "secret" })).toEqual({
      ok: true,
      data: { email: "ana@example.org", password: "secret" },
    });
  });

  it("uses the spec's messages", () => {
    expect(first({ email: "", password: "" })).toEqual([
      `email: ${MESSAGES.emailRequired}`,
      `password: ${MESSAGES.passwordRequired}`,
    ]);
    expect(first({})).toEqual([`email: ${MESSAGES.emailRequired}`, `password: ${MESSAGES.passwordRequired}`]);
    expect(first({ email: "abc", password: "12345" })).toEqual([
      `email: ${MESSAGES.emailInvalid}`,
      `password: ${MESSAGES.passwordShort}`,
    ]);
    expect(first({ email: "a@b.co", password: "123456" })).toBeNull();
  });

  it("checks the email for real, beyond the old three-letters pattern", () => {
    expect(first({ email: "abcdef", password: "123456" })).toEqual([`email: ${MESSAGES.emailInvalid}`]);
    expect(first({ email: "abc@def", password: "123456" })).toEqual([`email: ${MESSAGES.emailInvalid}`]);
  });

  it("does not trim passwords (spaces are characters) and caps their length", () => {
    expect(first({ email: "a@b.co", password: "      " })).toBeNull();
    expect(first({ email: "a@b.co", password: "x".repeat(129) })).toEqual(["password: At most 128 characters"]);
  });
});
