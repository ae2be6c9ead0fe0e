import { describe, expect, it } from "vitest";
import {
  deleteAccountSchema,
  ERASED_NAME,
  erasedEmail,
  isErasedAddress,
  isUserId,
  withoutPayer,
  withoutPerson,
} from "./privacy";

describe("an erased person's address", () => {
  it("is unique per account, in the reserved .invalid domain, and recognised in any case", () => {
    expect(erasedEmail("AbC123xyz")).toBe("AbC123xyz@erased.invalid");
    expect(erasedEmail("a")).not.toBe(erasedEmail("b"));
    expect(isErasedAddress(" ABC@Erased.Invalid ")).toBe(true);
    expect(isErasedAddress("someone@example.org")).toBe(false);
    expect(isErasedAddress("erased.invalid@example.org")).toBe(false);
  });
});

describe("withoutPayer", () => {
  it("keeps the payment's fields in their order and drops the payer's, and any field it does not know", () => {
    const raw =
      "mc_gross=99.00&first_name=Ada&payer_email=ada%40example.org&txn_id=9X&address_street=1+Row&" +
      "payment_status=Completed&custom=order-1&contact_phone=0123&new_field=x&mc_currency=USD";
    expect(withoutPayer(raw)).toBe("mc_gross=99.00&txn_id=9X&payment_status=Completed&custom=order-1&mc_currency=USD");
  });
});

describe("withoutPerson", () => {
  const ada = { name: "Ada Lovelace", email: "ada@example.org" };
  it("replaces the email and the full name in any case, wherever they are in the text", () => {
    expect(withoutPerson("Transfer from ADA LOVELACE (Ada@Example.org)", ada)).toBe(
      `Transfer from ${ERASED_NAME} (${ERASED_NAME})`,
    );
    expect(withoutPerson("INV 2026/17", ada)).toBe("INV 2026/17");
  });
  it("reads a name as text, not as a pattern, and leaves a name under three letters alone", () => {
    expect(withoutPerson("paid by a.b (c) and axb", { name: "a.b (c)", email: "" })).toBe(
      `paid by ${ERASED_NAME} and axb`,
    );
    expect(withoutPerson("Jo paid", { name: "Jo", email: "" })).toBe("Jo paid");
  });
});

describe("the deletion form", () => {
  it("needs the password; the code is optional (empty is none) and trimmed", () => {
    expect(deleteAccountSchema.safeParse({}).success).toBe(false);
    expect(deleteAccountSchema.safeParse({ password: "" }).success).toBe(false);
    expect(deleteAccountSchema.parse({ password: "pw", code: "" })).toEqual({ password: "pw", code: undefined });
    expect(deleteAccountSchema.parse({ password: "pw", code: " 123456 " })).toEqual({ password: "pw", code: "123456" });
    expect(deleteAccountSchema.safeParse({ password: "x".repeat(129) }).success).toBe(false);
  });
});

describe("isUserId", () => {
  it("takes better-auth's ids and UUIDs, and nothing that could be a path or SQL", () => {
    expect(isUserId("k3J9fQ2LmP0aZxY7bC4dE5gH6iJ8kL1m")).toBe(true);
    expect(isUserId("0b5f7a2e-1c3d-4e5f-8a9b-0c1d2e3f4a5b")).toBe(true);
    for (const bad of ["", "../x", "a b", "x'--", "x".repeat(65)]) expect(isUserId(bad)).toBe(false);
  });
});
