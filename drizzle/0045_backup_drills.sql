CREATE TABLE "backup_drills" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"backup_name" text NOT NULL,
	"place" text NOT NULL,
	"state" text DEFAULT 'waiting' NOT NULL,
	"requested_by" text NOT NULL,
	"requested_at" timestamp with time zone DEFAULT now() NOT NULL,
	"started_at" timestamp with time zone,
	"finished_at" timestamp with time zone,
	"report" jsonb,
	"error" text,
	CONSTRAINT "backup_drills_place_check" CHECK ("backup_drills"."place" in ('server', 'bucket')),
	CONSTRAINT "backup_drills_state_check" CHECK ("backup_drills"."state" in ('waiting', 'running', 'passed', 'failed'))
);
--> statement-breakpoint
CREATE INDEX "backup_drills_requested_idx" ON "backup_drills" USING btree ("requested_at" DESC NULLS LAST,"id");