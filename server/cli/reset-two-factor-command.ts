/**
 * What `npm run reset-two-factor -- EMAIL` does (the entry, reset-two-factor.ts, only runs it and exits with its
 * code): turns off a staff member's two-factor sign-in from the server's command line, for when the last Admin lost
 * their phone and their recovery codes (any other staff member's an Admin resets on the users screen). The same reset
 * as the screen's: the key and codes deleted, every session of theirs ended, and the activity log says it came from
 * the command line; they enrol again at their next sign-in. Works while the app runs or not, on DATABASE_URL's server
 * or the embedded one (decision 040). A function of its arguments, settings and output, so tests run it in process.
 */
import { ConfigError, loadConfig } from "../config";
import { connect } from "../db/client";
import { commandConnection } from "../db/command-connection";
import { AppLockError } from "../db/lock";
import { withSharedSecrets } from "../db/secrets";
import { AppError } from "../lib/errors";
import { createLogger } from "../lib/logger";
import { createServices } from "../services";

/** Who the activity log names for a reset made here. */
export const COMMAND_LINE = { id: "command-line", email: "Command line (npm run reset-two-factor)" };

export interface CommandOutput {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
}

/** Runs the reset; answers the exit code: 0 done, 1 refused or failed (said on stderr), 2 no address given. */
export async function resetTwoFactorCommand(
  args: readonly string[],
  env: NodeJS.ProcessEnv,
  out: CommandOutput,
): Promise<number> {
  const email = args[0]?.trim();
  if (!email) {
    out.stderr("Usage: npm run reset-two-factor -- EMAIL (a staff member's address)\n");
    return 2;
  }
  try {
    const envConfig = loadConfig(env);
    const logger = createLogger(envConfig.logLevel === "info" ? "warn" : envConfig.logLevel);
    const opened = await commandConnection(envConfig, logger);
    const database = connect(opened.connection, { max: 2, applicationName: "atelier-reset-two-factor" });
    try {
      if (opened.server?.created) throw new ConfigError(`DATA_DIR ${envConfig.dataDir} holds no database yet.`);
      const services = createServices(database, await withSharedSecrets(envConfig, database.db, logger), logger);
      const staff = (await services.adminUsers.list()).find((s) => s.userEmail.toLowerCase() === email.toLowerCase());
      if (!staff)
        throw new ConfigError(`${email} is not on the staff: only a staff member's two-factor sign-in is reset here.`);
      await services.twoFactor.resetForStaff(staff._id, COMMAND_LINE);
      out.stdout(
        `Two-factor sign-in is off for ${staff.userEmail}, and their sessions have ended. ` +
          `They sign in with their password and set it up again.\n`,
      );
      return 0;
    } finally {
      await database.close();
      await opened.close();
    }
  } catch (error) {
    if (error instanceof ConfigError || error instanceof AppLockError || error instanceof AppError)
      out.stderr(`${error.message}\n`);
    else out.stderr(`The reset failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    return 1;
  }
}
