/**
 * What `npm run media:move -- --to s3|database` does (the entry, media-move.ts, only runs it and exits with its code):
 * moves the media library's files (and the trash's) into the S3 bucket of MEDIA_STORAGE=s3, or back into the
 * database, one image at a time, each checked by its SHA-256 before its old copy is cleared (decision 081). Works
 * while the app runs or not; an interrupted move (Ctrl-C, a lost connection) goes on where it stopped when run again,
 * and a finished one finds nothing left to do. A function of its arguments, settings and output, so tests run it in
 * process.
 */
import { ConfigError, loadConfig } from "../config";
import { connect } from "../db/client";
import { commandConnection } from "../db/command-connection";
import { AppLockError } from "../db/lock";
import { withSharedSecrets } from "../db/secrets";
import { AppError } from "../lib/errors";
import { createLogger } from "../lib/logger";
import { describeMove, type MoveProgress } from "../media/storage-move";
import { createServices } from "../services";
import type { CommandOutput } from "./reset-two-factor-command";

const USAGE =
  "Usage: npm run media:move -- --to s3 (into the bucket of MEDIA_S3_BUCKET) or --to database (back into the database)\n";

/** The destination named by the arguments (`--to s3`, `--to=database`), or null when they name none or more. */
export function parseMoveArgs(args: readonly string[]): "s3" | "database" | null {
  const joined = args.join(" ").trim();
  const m = /^--to(?:=|\s+)(s3|database)$/.exec(joined);
  return m ? (m[1] as "s3" | "database") : null;
}

/** "Moved 12 of 40 images (31 files, 2.4 MB)" */
export const describeProgress = (p: MoveProgress) =>
  `Moved ${p.images} of ${p.total} images (${p.files} files, ${(p.bytes / (1024 * 1024)).toFixed(1)} MB)`;

/** Runs the move; answers the exit code: 0 done, 1 failed or stopped (said on stderr), 2 bad arguments. */
export async function mediaMoveCommand(
  args: readonly string[],
  env: NodeJS.ProcessEnv,
  out: CommandOutput,
  options: { signal?: AbortSignal } = {},
): Promise<number> {
  const to = parseMoveArgs(args);
  if (!to) {
    out.stderr(USAGE);
    return 2;
  }
  try {
    const envConfig = loadConfig(env);
    const logger = createLogger(envConfig.logLevel === "info" ? "warn" : envConfig.logLevel);
    const opened = await commandConnection(envConfig, logger);
    const database = connect(opened.connection, { max: 2, applicationName: "atelier-media-move" });
    try {
      if (opened.server?.created) throw new ConfigError(`DATA_DIR ${envConfig.dataDir} holds no database yet.`);
      const services = createServices(database, await withSharedSecrets(envConfig, database.db, logger), logger);
      let last = 0;
      const summary = await services.media.moveFiles(to, {
        signal: options.signal,
        progress: (p) => {
          // A line every second or so, and the last one.
          if (Date.now() - last < 1000 && p.images < p.total) return;
          last = Date.now();
          out.stdout(`${describeProgress(p)}\n`);
        },
      });
      out.stdout(`${describeMove(summary)}\n`);
      return summary.left === 0 ? 0 : 1;
    } finally {
      await database.close();
      await opened.close();
    }
  } catch (error) {
    if (error instanceof ConfigError || error instanceof AppLockError || error instanceof AppError)
      out.stderr(`${error.message} Run the same command again to go on once that is fixed.\n`);
    else out.stderr(`The move failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    return 1;
  }
}
