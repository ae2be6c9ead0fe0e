import { S3Client } from "@aws-sdk/client-s3";
import type { S3Settings } from "../config";

/**
 * The one S3 client of a process for the given settings (media and remote backups share it): the official AWS SDK v3
 * client, which speaks to AWS and to S3-compatible services (MinIO, Cloudflare R2, Backblaze B2, Scaleway…) alike.
 * Credentials come from the settings when given, else from the SDK's own chain (environment, instance role).
 */
export function s3Client(settings: S3Settings): S3Client {
  const key = JSON.stringify(settings);
  let client = clients.get(key);
  if (!client) {
    client = new S3Client({
      endpoint: settings.endpoint,
      region: settings.region,
      forcePathStyle: settings.forcePathStyle,
      ...(settings.credentials ? { credentials: settings.credentials } : {}),
      // Checksums only where the service asks: S3-compatible services that predate the SDK's default CRC checks
      // refuse or mis-store objects sent with them.
      requestChecksumCalculation: "WHEN_REQUIRED",
      responseChecksumValidation: "WHEN_REQUIRED",
    });
    clients.set(key, client);
  }
  return client;
}

const clients = new Map<string, S3Client>();

/** The object key of `name` under a location's prefix. */
export function s3Key(prefix: string, name: string): string {
  return `${prefix}${name}`;
}
