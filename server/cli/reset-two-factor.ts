/**
 * `npm run reset-two-factor -- EMAIL`: turns off a staff member's two-factor sign-in from the server's command line,
 * for when the last Admin lost their phone and their recovery codes (any other staff member's an Admin resets on the
 * users screen). The same reset as the screen's: the key and codes deleted, every session of theirs ended, and the
 * activity log says it came from the command line; they enrol again at their next sign-in. Works while the app runs
 * or not, on DATABASE_URL's server or the embedded one (decision 040).
 */
import { loadConfig, ConfigError } from "../config";
import { connect } from "../db/client";
import { commandConnection } from "../db/command-connection";
import { AppLockError } from "../db/lock";
import { withSharedSecrets } from "../db/secrets";
import { AppError } from "../lib/errors";
import { createLogger } from "../lib/logger";
import { createServices } from "../services";

/** Who the activity log names for a reset made here. */
export const COMMAND_LINE = { id: "command-line", email: "Command line (npm run reset-two-factor)" };

const email = process.argv[2]?.trim();
if (!email) {
  process.stderr.write("Usage: npm run reset-two-factor -- EMAIL (a staff member's address)\n");
  process.exit(2);
}
try {
  const envConfig = loadConfig();
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
    process.stdout.write(
      `Two-factor sign-in is off for ${staff.userEmail}, and their sessions have ended. ` +
        `They sign in with their password and set it up again.\n`,
    );
  } finally {
    await database.close();
    await opened.close();
  }
} catch (error) {
  if (error instanceof ConfigError || error instanceof AppLockError || error instanceof AppError)
    process.stderr.write(`${error.message}\n`);
  else process.stderr.write(`The reset failed: ${error instanceof Error ? (error.stack ?? error.message) : error}\n`);
  process.exit(1);
}
