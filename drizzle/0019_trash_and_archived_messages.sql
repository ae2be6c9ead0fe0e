CREATE TABLE "trash" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"kind" text NOT NULL,
	"entity" text NOT NULL,
	"record_id" uuid NOT NULL,
	"title" text NOT NULL,
	"row" jsonb NOT NULL,
	"deleted_at" timestamp with time zone NOT NULL,
	"deleted_by" text NOT NULL,
	CONSTRAINT "trash_kind_check" CHECK ("trash"."kind" in ('content', 'items', 'media'))
);
--> statement-breakpoint
CREATE TABLE "trash_files" (
	"trash_id" uuid NOT NULL,
	"format" text NOT NULL,
	"width" integer NOT NULL,
	"height" integer NOT NULL,
	"size" integer NOT NULL,
	"data" "bytea" NOT NULL,
	CONSTRAINT "trash_files_trash_id_format_width_pk" PRIMARY KEY("trash_id","format","width")
);
--> statement-breakpoint
ALTER TABLE "activity_log" DROP CONSTRAINT "activity_log_action_check";--> statement-breakpoint
ALTER TABLE "messages" ADD COLUMN "archived_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "trash_files" ADD CONSTRAINT "trash_files_trash_id_trash_id_fk" FOREIGN KEY ("trash_id") REFERENCES "public"."trash"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "trash_record_idx" ON "trash" USING btree ("record_id");--> statement-breakpoint
CREATE INDEX "trash_kind_deleted_idx" ON "trash" USING btree ("kind","deleted_at");--> statement-breakpoint
CREATE INDEX "trash_deleted_idx" ON "trash" USING btree ("deleted_at");--> statement-breakpoint
CREATE INDEX "messages_inbox_idx" ON "messages" USING btree ("message_status","created_at") WHERE "messages"."archived_at" is null;--> statement-breakpoint
CREATE INDEX "messages_archived_idx" ON "messages" USING btree ("archived_at") WHERE "messages"."archived_at" is not null;--> statement-breakpoint
ALTER TABLE "activity_log" ADD CONSTRAINT "activity_log_action_check" CHECK ("activity_log"."action" in ('create', 'update', 'delete', 'restore', 'purge'));--> statement-breakpoint
ALTER TABLE "trash_files" ALTER COLUMN "data" SET STORAGE EXTERNAL;