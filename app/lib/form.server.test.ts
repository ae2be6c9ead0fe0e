import { describe, expect, it } from "vitest";
import { z } from "zod";
import { AppError, badRequest } from "#server/lib/errors.ts";
import { FORM_ID_FIELD, type FormAnswer } from "./form";
import { formAction } from "./form.server";

const schema = z.object({
  email: z.string().trim().min(1, { error: "Email is required" }),
  password: z.string().min(6, { error: "Minimum 6 Characters" }),
});

const formData = (fields: Record<string, string>) => {
  const form = new FormData();
  form.set(FORM_ID_FIELD, "login");
  for (const [k, v] of Object.entries(fields)) form.set(k, v);
  return form;
};

/** What React Router sends: the body and the status of the `data(...)` answer. */
const sent = (answer: unknown) => {
  const { data, init } = answer as { data: FormAnswer; init: { status?: number } | null };
  return { body: data, status: init?.status ?? 200 };
};

describe("formAction", () => {
  it("refuses what the schema refuses, with one message per field and what was typed (never a hidden field)", async () => {
    let called = false;
    const answer = await formAction(formData({ email: " ", password: "abc" }), {
      schema,
      hide: ["password"],
      run: async () => (called = true),
    });
    const { body, status } = sent(answer);
    expect(called).toBe(false);
    expect(status).toBe(400);
    expect(body.form).toBe("login");
    expect(body.ok).toBe(false);
    expect(body.messages).toEqual(["Email is required"]);
    expect(body.result.error).toEqual({ email: ["Email is required"], password: ["Minimum 6 Characters"] });
    expect(body.result.initialValue).toEqual({ email: " " });
  });

  it("calls the service with the parsed value and answers its success texts", async () => {
    let got: unknown;
    const answer = await formAction(formData({ email: " a@b.co ", password: "secret-1" }), {
      schema,
      run: async (value) => {
        got = value;
        return "Paid";
      },
      success: (status) => ["Saved", ...(status === "Paid" ? ["And paid"] : [])],
      reset: true,
    });
    const { body, status } = sent(answer);
    expect(got).toEqual({ email: "a@b.co", password: "secret-1" });
    expect(status).toBe(200);
    expect(body).toMatchObject({ ok: true, messages: ["Saved", "And paid"], result: { initialValue: null } });
  });

  it("turns a service's refusal into field errors, its message and its status", async () => {
    const refused = await formAction(formData({ email: "a@b.co", password: "secret-1" }), {
      schema,
      run: async () => {
        throw badRequest([{ field: "email", message: "No account has this address." }]);
      },
    });
    expect(sent(refused).status).toBe(400);
    expect(sent(refused).body.messages).toEqual(["No account has this address."]);
    expect(sent(refused).body.result.error).toMatchObject({ email: ["No account has this address."] });

    for (const code of [401, 403, 404, 409, 429]) {
      const answer = await formAction(formData({ email: "a@b.co", password: "secret-1" }), {
        schema,
        run: async () => {
          throw new AppError(code, `refused ${code}`);
        },
      });
      expect(sent(answer).status).toBe(code);
      expect(sent(answer).body.result.error).toEqual({ "": [`refused ${code}`] });
    }
  });

  it("says the spec's text instead of the service's when the form has one", async () => {
    const answer = await formAction(formData({ email: "a@b.co", password: "secret-1" }), {
      schema,
      failure: "Failed to update payment status",
      run: async () => {
        throw new AppError(404, "Order not found");
      },
    });
    expect(sent(answer).body.messages).toEqual(["Failed to update payment status"]);
  });

  it("without a schema hands the service the typed fields, less the form id and intent", async () => {
    let got: unknown;
    const form = formData({ paypalEmail: "p@example.org", intent: "add" });
    await formAction(form, { run: async (value) => (got = value) });
    expect(got).toEqual({ paypalEmail: "p@example.org" });
  });

  it("leaves errors of ours and redirects to the error boundary", async () => {
    const run = (error: unknown) =>
      formAction(formData({ email: "a@b.co", password: "secret-1" }), {
        schema,
        run: async () => {
          throw error;
        },
      });
    await expect(run(new AppError(503, "Try again"))).rejects.toMatchObject({ status: 503 });
    await expect(run(new TypeError("bug"))).rejects.toThrow("bug");
    const redirect = new Response(null, { status: 302, headers: { location: "/" } });
    await expect(run(redirect)).rejects.toBe(redirect);
  });
});
