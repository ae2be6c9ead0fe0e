import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { CreateBucketCommand } from "@aws-sdk/client-s3";
import S3rver from "s3rver";
import type { S3Settings } from "#server/config.ts";
import { s3Client } from "#server/lib/s3.ts";

export interface LocalS3 {
  endpoint: string;
  settings: S3Settings;
  /** The environment that points the app at this server (S3_*; add MEDIA_STORAGE or BACKUP_TARGET yourself). */
  env: Record<string, string>;
  stop: () => Promise<void>;
}

/**
 * A real S3-compatible server on loopback (s3rver, files in a temporary folder) with the given buckets made: the
 * tests speak to it through the AWS SDK exactly as the app does to AWS or MinIO.
 */
export async function startLocalS3(buckets: string[]): Promise<LocalS3> {
  const directory = mkdtempSync(path.join(tmpdir(), "atelier-s3-"));
  const server = new S3rver({ port: 0, address: "127.0.0.1", silent: true, directory });
  const { port } = (await server.run()) as { port: number };
  const endpoint = `http://127.0.0.1:${port}`;
  const settings: S3Settings = {
    endpoint,
    region: "us-east-1",
    credentials: { accessKeyId: "S3RVER", secretAccessKey: "S3RVER" },
    forcePathStyle: true,
  };
  const client = s3Client(settings);
  for (const Bucket of buckets) await client.send(new CreateBucketCommand({ Bucket }));
  return {
    endpoint,
    settings,
    env: {
      S3_ENDPOINT: endpoint,
      S3_REGION: settings.region,
      S3_ACCESS_KEY_ID: "S3RVER",
      S3_SECRET_ACCESS_KEY: "S3RVER",
    },
    stop: async () => {
      await server.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
