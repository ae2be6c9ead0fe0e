import { describe, expect, it } from "vitest";
import {
  deleteAccountSchema,
  ERASED_NAME,
  erasedEmail,
  isErasedAddress,
  isUserId,
  personOf,
  withoutAnyOf,
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

describe("personOf: the one shape every store's forgetter is handed (decision 086)", () => {
  const account = { id: "u1", email: " Ada@Example.org ", name: " Ada Lovelace " };

  it("lists each address and name once, lower-cased and trimmed, the account's first, then the orders' in order", () => {
    const person = personOf(account, [
      { email: "ada@example.org", name: "Ada Lovelace" },
      { email: "ADA.KING@example.org", name: "Ada King" },
      { email: "ada.king@example.org", name: "Ada King" },
    ]);
    expect(person).toEqual({
      userId: "u1",
      emails: ["ada@example.org", "ada.king@example.org"],
      names: ["Ada Lovelace", "Ada King"],
    });
  });

  it("leaves out names under 3 letters, the placeholders, and an older address that is now someone else's", () => {
    const person = personOf(
      { id: "u1", email: "ada@example.org", name: "" },
      [
        { email: "u1@erased.invalid", name: ERASED_NAME },
        { email: "old@example.org", name: "Al" },
        { email: "kept@example.org", name: "" },
      ],
      new Set(["old@example.org", "ada@example.org"]),
    );
    // The account's own address stays even if listed as another's (it is unique to the account).
    expect(person).toEqual({ userId: "u1", emails: ["ada@example.org", "kept@example.org"], names: [] });
  });
});

describe("withoutAnyOf", () => {
  it("replaces every address and name of the person, any case, the longest first", () => {
    const person = { emails: ["ada@example.org", "ada.king@example.org"], names: ["Ada", "Ada Lovelace"] };
    expect(withoutAnyOf("ADA LOVELACE <Ada.King@example.org>, cc ada@example.org; Ada", person)).toBe(
      `${ERASED_NAME} <${ERASED_NAME}>, cc ${ERASED_NAME}; ${ERASED_NAME}`,
    );
  });

  it("leaves a text without them as it was, and parts under 3 letters alone", () => {
    expect(withoutAnyOf("Order 2026-0001 paid", { emails: ["ada@example.org"], names: ["Al"] })).toBe(
      "Order 2026-0001 paid",
    );
  });
});
