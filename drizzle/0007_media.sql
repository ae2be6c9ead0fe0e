CREATE TABLE "media" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"key" text NOT NULL,
	"file_name" text NOT NULL,
	"source_format" text NOT NULL,
	"source_bytes" integer NOT NULL,
	"width" integer NOT NULL,
	"height" integer NOT NULL,
	"color" text NOT NULL,
	"alt" text DEFAULT '' NOT NULL,
	"created_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "media_source_format_check" CHECK ("media"."source_format" in ('jpeg', 'png', 'webp', 'avif', 'svg')),
	CONSTRAINT "media_size_check" CHECK ("media"."width" > 0 and "media"."height" > 0)
);
--> statement-breakpoint
CREATE TABLE "media_variants" (
	"media_id" uuid NOT NULL,
	"format" text NOT NULL,
	"width" integer NOT NULL,
	"height" integer NOT NULL,
	"size" integer NOT NULL,
	"data" "bytea" NOT NULL,
	CONSTRAINT "media_variants_media_id_format_width_pk" PRIMARY KEY("media_id","format","width"),
	CONSTRAINT "media_variants_format_check" CHECK ("media_variants"."format" in ('webp', 'avif', 'svg'))
);
--> statement-breakpoint
ALTER TABLE "media_variants" ADD CONSTRAINT "media_variants_media_id_media_id_fk" FOREIGN KEY ("media_id") REFERENCES "public"."media"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "media_key_idx" ON "media" USING btree ("key");--> statement-breakpoint
CREATE INDEX "media_created_idx" ON "media" USING btree ("created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
-- Image files are compressed already: stored out of line without a compression attempt.
ALTER TABLE "media_variants" ALTER COLUMN "data" SET STORAGE EXTERNAL;
