import { describe, expect, it } from "vitest";
import { generationOutcome, reasonOf } from "./generator";

const list = [
  { subject: "One", body: "Body one" },
  { subject: "Two", body: "Body two" },
  { subject: "Three", body: "Body three" },
];
const ok = (data: unknown) => ({ ok: true, status: 200, data: { success: true, data } });

describe("generationOutcome (spec 1, section 8)", () => {
  it("shows one template, the first of the shuffled list", () => {
    // random() = 0: [1,2,3] → [3,2,1] → [2,3,1]; the first is "Two".
    expect(generationOutcome(ok(list), () => 0)).toEqual({ ok: true, emails: [list[1]] });
    expect(generationOutcome(ok(list), () => 0.99)).toEqual({ ok: true, emails: [list[0]] });
  });

  it.each([401, 403, 404])("a %i answer is 'No active membership found'", (status) => {
    expect(
      generationOutcome({ ok: false, status, data: { success: false, error: "No active membership found" } }),
    ).toEqual({ ok: false, message: "No active membership found" });
  });

  it("another failure names its reason", () => {
    expect(generationOutcome({ ok: false, status: 500, data: { error: "Something went wrong on our side." } })).toEqual(
      {
        ok: false,
        message: "Failed to load email templates: Something went wrong on our side.",
      },
    );
    expect(generationOutcome({ ok: false, status: 502, data: {} })).toEqual({
      ok: false,
      message: "Failed to load email templates: the server answered 502",
    });
    expect(generationOutcome({ networkError: new TypeError("Failed to fetch") })).toEqual({
      ok: false,
      message: "Failed to load email templates: Failed to fetch",
    });
  });

  it("an empty or malformed list is 'No active membership found.'", () => {
    expect(generationOutcome(ok([]))).toEqual({ ok: false, message: "No active membership found." });
    expect(generationOutcome(ok([{ subject: 1 }]))).toEqual({ ok: false, message: "No active membership found." });
    expect(generationOutcome(ok(null))).toEqual({ ok: false, message: "No active membership found." });
  });

  it("reasonOf gives a thrown value's message", () => {
    expect(reasonOf(new Error("boom"))).toBe("boom");
    expect(reasonOf("plain")).toBe("plain");
    expect(reasonOf(undefined)).toBe("unknown error");
  });
});
