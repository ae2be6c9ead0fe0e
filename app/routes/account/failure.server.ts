import { data } from "react-router";
import { isAppError } from "../../../server/lib/errors";
import type { ActionFailure } from "../../components/forms";

/**
 * Runs an account action; a failure a person can act on (bad input, wrong password, taken email, too many attempts)
 * comes back as the form's message with what was typed (never the password), and the status that says what happened.
 */
export async function accountAction<T>(
  form: FormData,
  run: () => Promise<T>,
): Promise<T | ReturnType<typeof data<ActionFailure>>> {
  try {
    return await run();
  } catch (error) {
    if (!isAppError(error) || error.status >= 500) throw error;
    const email = form.get("email");
    const fieldErrors = error.errors.filter((e) => e.field !== "body");
    return data<ActionFailure>(
      {
        message: fieldErrors.length && error.status === 400 ? undefined : error.message,
        errors: fieldErrors,
        values: typeof email === "string" ? { email } : {},
      },
      { status: error.status },
    );
  }
}
