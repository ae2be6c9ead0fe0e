import { describe, expect, it } from "vitest";
import { messageSchema } from "./public-forms";

const message = (number?: unknown) => ({
  name: "Ada",
  email: "ada@example.org",
  subject: "Kitchen",
  message: "A question about our kitchen.",
  ...(number === undefined ? {} : { number }),
});

describe("the contact form's phone number (spec: no rule beyond a sane length)", () => {
  it.each(["", "123", "4567", "+44 113 496 0728", "ext. 12, ask for Sam", "  0800 FLOWERS  "])("accepts %j", (n) => {
    const parsed = messageSchema.safeParse(message(n));
    expect(parsed.success).toBe(true);
    expect(parsed.data!.number).toBe(n.trim());
  });

  it("is optional", () => {
    expect(messageSchema.parse(message()).number).toBe("");
  });

  it("refuses more than 40 characters, with a message that says so", () => {
    const parsed = messageSchema.safeParse(message("1".repeat(41)));
    expect(parsed.success).toBe(false);
    expect(parsed.error!.issues.map((i) => i.message)).toEqual(["Phone number must be at most 40 characters"]);
  });

  it("refuses a value that is not text", () => {
    expect(messageSchema.safeParse(message(12345)).error!.issues[0]!.message).toBe("Phone number must be text");
  });
});
