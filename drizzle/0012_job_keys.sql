CREATE TABLE "job_keys" (
	"key" text PRIMARY KEY NOT NULL,
	"queue" text NOT NULL,
	"queued_at" timestamp with time zone NOT NULL
);
