import { readdir, stat } from "node:fs/promises";
import path from "node:path";
import { byAge } from "#domain/backups.ts";
import { ARCHIVE_NAME } from "#server/backup/manifest.ts";
import { readManifest } from "#server/backup/read.ts";
import { listArchives, readRemoteManifest, reasonOf, targetLabel, type RemoteBackups } from "#server/backup/remote.ts";
import { infoOf, LIST_TIMEOUT_MS, type BackupInfo, type Backups } from "./model.ts";

async function localList({ dir, manifests }: Backups): Promise<BackupInfo[]> {
  const names = await readdir(dir).catch((error: NodeJS.ErrnoException) => {
    if (error.code === "ENOENT") return [] as string[];
    throw error;
  });
  const found: BackupInfo[] = [];
  for (const name of names.filter((n) => ARCHIVE_NAME.test(n))) {
    const file = path.join(dir, name);
    const info = await stat(file).catch(() => undefined);
    if (!info?.isFile()) continue;
    let known = manifests.get(name);
    if (!known || known.size !== info.size) {
      known = { size: info.size, manifest: await readManifest(file).catch(() => null) };
      manifests.set(name, known);
    }
    found.push(infoOf(name, info.size, known.manifest, info.mtime, "server"));
  }
  return found;
}

/** The bucket's archives (listed from the bucket itself, whoever made them), each with its manifest's facts. */
async function remoteList({ remoteManifests }: Backups, r: RemoteBackups): Promise<BackupInfo[]> {
  // The screen waits for it: a service that does not answer is given up on, and said so, after a while.
  const signal = AbortSignal.timeout(LIST_TIMEOUT_MS);
  const found: BackupInfo[] = [];
  for (const o of await listArchives(r, signal)) {
    let known = remoteManifests.get(o.key);
    if (!known || known.etag !== o.etag) {
      const manifest = await readRemoteManifest(r, o.key, signal).catch(() => null);
      // Cut short is not unreadable: nothing is kept, and the list says the bucket did not answer.
      if (signal.aborted) throw new Error(`no answer within ${LIST_TIMEOUT_MS / 1000} s`);
      known = { etag: o.etag, manifest };
      remoteManifests.set(o.key, known);
    }
    found.push(infoOf(o.name, o.size, known.manifest, o.modifiedAt, "bucket"));
  }
  return found;
}

/** Both places, one row per backup (the same name in both is one backup), newest first. */
export async function list(backups: Backups): Promise<{ backups: BackupInfo[]; bucketError: string | null }> {
  const { remote, logger } = backups;
  const local = await localList(backups);
  let inBucket: BackupInfo[] = [];
  let bucketError: string | null = null;
  if (remote) {
    inBucket = await remoteList(backups, remote).catch((error: unknown) => {
      logger.warn({ error: reasonOf(error), target: targetLabel(remote.location) }, "the bucket could not be listed");
      bucketError = `The bucket ${targetLabel(remote.location)} could not be read: ${reasonOf(error)}`;
      return [];
    });
  }
  const byName = new Map<string, BackupInfo>();
  for (const b of [...local, ...inBucket]) {
    const seen = byName.get(b.name);
    if (!seen) byName.set(b.name, b);
    else {
      seen.places = [...seen.places, ...b.places];
      if (!seen.counts && b.counts) byName.set(b.name, { ...b, places: seen.places });
    }
  }
  const sorted = [...byName.values()].sort(
    (a, b) => b.createdAt.getTime() - a.createdAt.getTime() || byAge(b.name, a.name),
  );
  return { backups: sorted, bucketError };
}

export async function latestAt(backups: Backups): Promise<Date | undefined> {
  return (await localList(backups)).sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime()).find((b) => b.counts)
    ?.createdAt;
}
