import { describe, expect, it } from "vitest";
import { AppError, notFound } from "#server/lib/errors.ts";
import { whenRefused } from "./refusal.server";

describe("whenRefused", () => {
  it("gives the answer, or the page's own for a refusal of that status", async () => {
    await expect(whenRefused(Promise.resolve(1), 404, () => null)).resolves.toBe(1);
    await expect(whenRefused(Promise.reject(notFound("No such order")), 404, (r) => r)).resolves.toEqual({
      status: 404,
      message: "No such order",
    });
    await expect(
      whenRefused(
        Promise.reject(new AppError(409, "Paid")),
        (s) => s < 500,
        (r) => r.status,
      ),
    ).resolves.toBe(409);
  });

  it("passes on other statuses and errors that are no refusal, for the error boundary", async () => {
    await expect(whenRefused(Promise.reject(new AppError(403, "No")), 404, () => null)).rejects.toThrow("No");
    await expect(
      whenRefused(
        Promise.reject(new Error("down")),
        () => true,
        () => null,
      ),
    ).rejects.toThrow("down");
  });
});
