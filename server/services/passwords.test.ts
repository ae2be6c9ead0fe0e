import { describe, expect, it } from "vitest";
import { MESSAGES } from "#domain/account-forms.ts";
import { isCommonPassword, passwordProblem } from "./passwords";

describe("the password rule", () => {
  it("refuses the most common passwords, whatever their case", async () => {
    for (const p of ["123456", "password", "qwerty", "letmein", "secret1", "Password", "PASSWORD1", "iloveyou"]) {
      expect(await isCommonPassword(p), p).toBe(true);
      expect(await passwordProblem(p, { staff: false }), p).toBe(MESSAGES.passwordCommon);
    }
  });

  it("accepts an uncommon password of any length the spec allows", async () => {
    for (const p of ["plain-html-1", "vermilion kettle drum", "tq8#Lw!z"]) {
      expect(await passwordProblem(p, { staff: false }), p).toBeNull();
    }
  });

  it("asks staff for at least 12 characters, counted as characters, not bytes", async () => {
    expect(await passwordProblem("plain-html1", { staff: true })).toBe(MESSAGES.staffPasswordShort);
    expect(await passwordProblem("plain-html-1", { staff: true })).toBeNull();
    expect(await passwordProblem("ééééééééééé", { staff: true })).toBe(MESSAGES.staffPasswordShort);
  });

  it("refuses a common password of 12 characters for staff too", async () => {
    expect(await isCommonPassword("qwertyuiop12")).toBe(true);
    expect(await passwordProblem("qwertyuiop12", { staff: true })).toBe(MESSAGES.passwordCommon);
  });

  it("says what to do", () => {
    expect(MESSAGES.passwordCommon).toMatch(/choose/);
    expect(MESSAGES.staffPasswordShort).toMatch(/12 characters/);
  });
});
