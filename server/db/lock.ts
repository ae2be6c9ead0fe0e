import { closeSync, openSync, readFileSync, rmSync, writeSync } from "node:fs";
import path from "node:path";

export class AppLockError extends Error {}

/**
 * One app process owns a DATA_DIR (and its embedded database server). The lock file holds the owner's PID;
 * a lock whose PID is dead is taken over.
 */
export function acquireAppLock(dataDir: string): () => void {
  const file = path.join(dataDir, "app.lock");
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const fd = openSync(file, "wx", 0o600);
      writeSync(fd, String(process.pid));
      closeSync(fd);
      return () => {
        try {
          if (readFileSync(file, "utf8").trim() === String(process.pid)) rmSync(file);
        } catch {
          /* already gone */
        }
      };
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw e;
      const owner = Number(readFileSync(file, "utf8").trim());
      if (Number.isInteger(owner) && owner > 0 && owner !== process.pid && alive(owner)) {
        throw new AppLockError(
          `Another app process (PID ${owner}) is already running on DATA_DIR ${dataDir}. ` +
            `Stop it first, or start this one with another DATA_DIR.`,
        );
      }
      rmSync(file, { force: true }); // its owner is dead: take the lock over
    }
  }
  throw new AppLockError(`Could not take the app lock ${file}.`);
}

/** The live process holding DATA_DIR's app lock (the app running on it), if any. */
export function appLockOwner(dataDir: string): number | undefined {
  try {
    const owner = Number(readFileSync(path.join(dataDir, "app.lock"), "utf8").trim());
    return Number.isInteger(owner) && owner > 0 && owner !== process.pid && alive(owner) ? owner : undefined;
  } catch {
    return undefined;
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "EPERM";
  }
}
