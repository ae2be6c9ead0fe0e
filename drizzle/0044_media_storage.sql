ALTER TABLE "media_variants" ALTER COLUMN "data" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "trash_files" ALTER COLUMN "data" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "media_variants" ADD COLUMN "storage" text DEFAULT 'database' NOT NULL;--> statement-breakpoint
ALTER TABLE "media_variants" ADD COLUMN "sha256" text;--> statement-breakpoint
ALTER TABLE "trash_files" ADD COLUMN "sha256" text;--> statement-breakpoint
-- Hosts still on the last release insert files without a checksum during a rolling upgrade: computed for them from the
-- bytes they write (expand and contract, decision 083), so the column can be NOT NULL at once.
CREATE FUNCTION "media_file_sha256"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW."sha256" IS NULL AND NEW."data" IS NOT NULL THEN
    NEW."sha256" := encode(sha256(NEW."data"), 'hex');
  END IF;
  RETURN NEW;
END
$$;--> statement-breakpoint
CREATE TRIGGER "media_variants_sha256" BEFORE INSERT ON "media_variants" FOR EACH ROW EXECUTE FUNCTION "media_file_sha256"();--> statement-breakpoint
CREATE TRIGGER "trash_files_sha256" BEFORE INSERT ON "trash_files" FOR EACH ROW EXECUTE FUNCTION "media_file_sha256"();--> statement-breakpoint
-- The files stored so far: their checksum, computed inside PostgreSQL (decision 081).
UPDATE "media_variants" SET "sha256" = encode(sha256("data"), 'hex');--> statement-breakpoint
ALTER TABLE "media_variants" ALTER COLUMN "sha256" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "media_variants" ADD COLUMN "s3_bucket" text;--> statement-breakpoint
ALTER TABLE "media_variants" ADD COLUMN "s3_key" text;--> statement-breakpoint
ALTER TABLE "trash_files" ADD COLUMN "storage" text DEFAULT 'database' NOT NULL;--> statement-breakpoint
-- The files stored so far: their checksum, computed inside PostgreSQL (decision 081).
UPDATE "trash_files" SET "sha256" = encode(sha256("data"), 'hex');--> statement-breakpoint
ALTER TABLE "trash_files" ALTER COLUMN "sha256" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "trash_files" ADD COLUMN "s3_bucket" text;--> statement-breakpoint
ALTER TABLE "trash_files" ADD COLUMN "s3_key" text;--> statement-breakpoint
CREATE INDEX "media_variants_storage_idx" ON "media_variants" USING btree ("storage","media_id");--> statement-breakpoint
CREATE INDEX "media_variants_s3_key_idx" ON "media_variants" USING btree ("s3_key");--> statement-breakpoint
CREATE INDEX "trash_files_s3_key_idx" ON "trash_files" USING btree ("s3_key");--> statement-breakpoint
ALTER TABLE "media_variants" ADD CONSTRAINT "media_variants_storage_check" CHECK (("media_variants"."storage" = 'database' and "media_variants"."data" is not null and "media_variants"."s3_bucket" is null and "media_variants"."s3_key" is null)
     or ("media_variants"."storage" = 's3' and "media_variants"."data" is null and "media_variants"."s3_bucket" is not null and "media_variants"."s3_key" is not null));--> statement-breakpoint
ALTER TABLE "trash_files" ADD CONSTRAINT "trash_files_storage_check" CHECK (("trash_files"."storage" = 'database' and "trash_files"."data" is not null and "trash_files"."s3_bucket" is null and "trash_files"."s3_key" is null)
     or ("trash_files"."storage" = 's3' and "trash_files"."data" is null and "trash_files"."s3_bucket" is not null and "trash_files"."s3_key" is not null));