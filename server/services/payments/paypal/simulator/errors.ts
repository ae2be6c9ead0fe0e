import { randomBytes } from "node:crypto";
import type { z } from "zod";
import type { Answer } from "./model";

/** A PayPal error body, worded as PayPal words it. */
export function paypalError(
  status: number,
  name: string,
  message: string,
  details: { issue: string; description: string; field?: string }[] = [],
): Answer {
  return {
    status,
    body: {
      name,
      message,
      debug_id: randomBytes(7).toString("hex"),
      details,
      links: details[0]
        ? [
            {
              href: `https://developer.paypal.com/api/rest/reference/orders/v2/errors/#${details[0].issue}`,
              rel: "information_link",
              method: "GET",
            },
          ]
        : [],
    },
  };
}
const UNPROCESSABLE =
  "The requested action could not be performed, semantically incorrect, or failed business validation.";
export const unprocessable = (issue: string, description: string) =>
  paypalError(422, "UNPROCESSABLE_ENTITY", UNPROCESSABLE, [{ issue, description }]);
export const notFound = (field: string) =>
  paypalError(404, "RESOURCE_NOT_FOUND", "The specified resource does not exist.", [
    {
      issue: "INVALID_RESOURCE_ID",
      field,
      description: "Specified resource ID does not exist. Please check the resource ID and try again.",
    },
  ]);
export const invalidRequest = (error: z.ZodError) =>
  paypalError(
    400,
    "INVALID_REQUEST",
    "Request is not well-formed, syntactically incorrect, or violates schema.",
    error.issues.slice(0, 10).map((i) => ({
      field: "/" + i.path.join("/"),
      issue:
        i.code === "invalid_type" && i.input === undefined ? "MISSING_REQUIRED_PARAMETER" : "INVALID_PARAMETER_VALUE",
      description:
        i.code === "invalid_type" && i.input === undefined ? "A required field / parameter is missing." : i.message,
    })),
  );

/** An outcome's answer, or an error naming PayPal's refusal (the outcomes are called by pages and tests). */
export function orThrow(answer: Answer): unknown {
  if (answer.status >= 400) {
    const body = answer.body as { details?: { description: string }[]; message?: string };
    throw new Error(body.details?.[0]?.description ?? body.message ?? `refused (${answer.status})`);
  }
  return answer.body;
}
