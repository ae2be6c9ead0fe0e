import { describe, expect, it } from "vitest";
import {
  manualKeyOf,
  mayTurnOffTwoFactor,
  recoveryCodeField,
  secondFactorSchema,
  totpCodeField,
  twoFactorDue,
} from "./two-factor";

describe("who must use two-factor sign-in", () => {
  it("every staff role without it, while required; never a customer; nobody when optional", () => {
    expect(twoFactorDue("Admin", false, "required")).toBe(true);
    expect(twoFactorDue("Editor", false, "required")).toBe(true);
    expect(twoFactorDue("Admin", true, "required")).toBe(false);
    expect(twoFactorDue(null, false, "required")).toBe(false);
    expect(twoFactorDue("Admin", false, "optional")).toBe(false);
  });
  it("staff may not turn it off while required; customers always may", () => {
    expect(mayTurnOffTwoFactor("Admin", "required")).toBe(false);
    expect(mayTurnOffTwoFactor("Editor", "required")).toBe(false);
    expect(mayTurnOffTwoFactor(null, "required")).toBe(true);
    expect(mayTurnOffTwoFactor("Admin", "optional")).toBe(true);
  });
});

describe("codes as people type them", () => {
  it("six digits, spaces and dashes ignored; anything else refused", () => {
    expect(totpCodeField.parse(" 123 456 ")).toBe("123456");
    expect(totpCodeField.parse("123-456")).toBe("123456");
    for (const bad of ["12345", "1234567", "abcdef", ""]) expect(totpCodeField.safeParse(bad).success).toBe(false);
  });
  it("a recovery code with or without its dash, its case kept", () => {
    expect(recoveryCodeField.parse("AbCdE-12345")).toBe("AbCdE-12345");
    expect(recoveryCodeField.parse(" AbCdE12345 ")).toBe("AbCdE-12345");
    expect(recoveryCodeField.safeParse("AbCdE-1234").success).toBe(false);
    expect(recoveryCodeField.safeParse("AbCdE_12345").success).toBe(false);
  });
  it("the sign-in form names its method", () => {
    expect(secondFactorSchema.safeParse({ method: "totp", code: "123456" }).success).toBe(true);
    expect(secondFactorSchema.safeParse({ method: "recovery", code: "123456" }).success).toBe(false);
    expect(secondFactorSchema.safeParse({ method: "sms", code: "123456" }).success).toBe(false);
  });
  it("the key for typing by hand, in groups of four", () => {
    expect(manualKeyOf("otpauth://totp/A:b?secret=ABCDEFGHIJKLMNOPQR&issuer=A")).toBe("ABCD EFGH IJKL MNOP QR");
  });
});
