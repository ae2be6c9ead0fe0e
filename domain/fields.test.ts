import { describe, expect, it } from "vitest";
import { z } from "zod";
import { choice, emailAddress, httpLink, isEmail, isSafeLink, requiredText, safeLink, text } from "./fields";

const messages = (schema: z.ZodType, input: unknown) =>
  schema.safeParse(input).error?.issues.map((i) => i.message) ?? [];

describe("link and email rules", () => {
  it("isSafeLink", () => {
    expect(isSafeLink("/pricing")).toBe(true);
    expect(isSafeLink("#contact-sec")).toBe(true);
    expect(isSafeLink("https://www.facebook.com/x")).toBe(true);
    expect(isSafeLink("http://example.com")).toBe(true);
    expect(isSafeLink("//example.com")).toBe(false);
    expect(isSafeLink("/\\example.com")).toBe(false);
    expect(isSafeLink("JavaScript:alert(1)")).toBe(false);
    expect(isSafeLink("mailto:a@b.co")).toBe(false);
  });
  it("isEmail", () => {
    expect(isEmail("studio@example.com")).toBe(true);
    expect(isEmail("a@b.co")).toBe(true);
    expect(isEmail("no-at.example.com")).toBe(false);
    expect(isEmail("a@b")).toBe(false);
    expect(isEmail("a b@c.com")).toBe(false);
    expect(isEmail(`${"a".repeat(250)}@b.co`)).toBe(false);
  });
});

describe("field helpers", () => {
  it("requiredText trims, names the field when absent, blank, not text or too long", () => {
    const subject = requiredText("Subject", 5);
    expect(subject.parse("  Hi  ")).toBe("Hi");
    expect(messages(subject, undefined)).toEqual(["Subject is required"]);
    expect(messages(subject, null)).toEqual(["Subject is required"]);
    expect(messages(subject, "   ")).toEqual(["Subject is required"]);
    expect(messages(subject, 42)).toEqual(["Subject must be text"]);
    expect(messages(subject, "123456")).toEqual(["Subject must be at most 5 characters"]);
    expect(messages(requiredText("Item name", 5, "Name it"), "")).toEqual(["Name it"]);
  });

  it("text accepts empty", () => {
    expect(text("Note", 10).parse(" ")).toBe("");
  });

  it("emailAddress: required, then valid, with the caller's wording when given", () => {
    const email = emailAddress("PayPal email");
    expect(email.parse(" pay@studio.example ")).toBe("pay@studio.example");
    expect(messages(email, "")).toEqual(["PayPal email is required"]);
    expect(messages(email, undefined)).toEqual(["PayPal email is required"]);
    expect(messages(email, "nope")).toEqual(["PayPal email must be a valid email address"]);
    const spec = emailAddress("Email", { required: "Email is Required", invalid: "Provide a Valid Email" });
    expect(messages(spec, "")).toEqual(["Email is Required"]);
    expect(messages(spec, "a@b")).toEqual(["Provide a Valid Email"]);
  });

  it("safeLink lets http(s) and site paths through, empty too, and nothing else", () => {
    const link = safeLink("Button link");
    expect(link.parse("/pricing")).toBe("/pricing");
    expect(link.parse("")).toBe("");
    expect(messages(link, "javascript:alert(1)")).toEqual([
      "Button link must be an http(s) address or a path starting with /",
    ]);
  });

  it("httpLink requires an absolute http(s) address", () => {
    const link = httpLink("Canva link");
    expect(link.parse("https://canva.com/x")).toBe("https://canva.com/x");
    expect(messages(link, "")).toEqual(["Canva link is required"]);
    expect(messages(link, "/relative")).toEqual(["Canva link must be an http(s) address, such as https://…"]);
  });

  it("choice: one of the values; blank is required; anything else names the choices", () => {
    const format = choice(["Facebook", "Instagram", "YouTube"], { required: "Format is required" });
    expect(format.parse(" YouTube ")).toBe("YouTube");
    expect(messages(format, "")).toEqual(["Format is required"]);
    expect(messages(format, undefined)).toEqual(["Format is required"]);
    expect(messages(format, "TikTok")).toEqual(["Choose Facebook, Instagram or YouTube"]);
    expect(messages(choice(["Pending", "Delivered"]), undefined)).toEqual(["Choose Pending or Delivered"]);
  });
});
