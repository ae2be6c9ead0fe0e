CREATE TABLE "import_rows" (
	"import_id" uuid NOT NULL,
	"row_number" integer NOT NULL,
	"email" text,
	"action" text NOT NULL,
	"reason" text,
	"data" jsonb,
	CONSTRAINT "import_rows_import_id_row_number_pk" PRIMARY KEY("import_id","row_number"),
	CONSTRAINT "import_rows_action_check" CHECK ("import_rows"."action" in ('create', 'update', 'skip', 'refuse'))
);
--> statement-breakpoint
CREATE TABLE "imports" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"file_name" text NOT NULL,
	"bytes" bigint NOT NULL,
	"headers" jsonb NOT NULL,
	"preset" text NOT NULL,
	"mapping" jsonb NOT NULL,
	"send_opt_in" boolean DEFAULT false NOT NULL,
	"state" text DEFAULT 'uploaded' NOT NULL,
	"rows_total" integer DEFAULT 0 NOT NULL,
	"cursor" integer DEFAULT 0 NOT NULL,
	"created" integer DEFAULT 0 NOT NULL,
	"updated" integer DEFAULT 0 NOT NULL,
	"skipped" integer DEFAULT 0 NOT NULL,
	"refused" integer DEFAULT 0 NOT NULL,
	"error" text,
	"created_by" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"checked_at" timestamp with time zone,
	"started_at" timestamp with time zone,
	"finished_at" timestamp with time zone,
	CONSTRAINT "imports_state_check" CHECK ("imports"."state" in ('uploaded', 'checking', 'checked', 'importing', 'done', 'failed')),
	CONSTRAINT "imports_preset_check" CHECK ("imports"."preset" in ('ours', 'ghost', 'pmpro', 'memberpress', 'custom'))
);
--> statement-breakpoint
ALTER TABLE "import_rows" ADD CONSTRAINT "import_rows_import_id_imports_id_fk" FOREIGN KEY ("import_id") REFERENCES "public"."imports"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "import_rows_email_idx" ON "import_rows" USING btree ("import_id","email","row_number");--> statement-breakpoint
CREATE INDEX "import_rows_action_idx" ON "import_rows" USING btree ("import_id","action","row_number");--> statement-breakpoint
CREATE INDEX "imports_created_idx" ON "imports" USING btree ("created_at" DESC NULLS LAST,"id");--> statement-breakpoint
CREATE INDEX "user_email_lower_idx" ON "user" USING btree (lower("email"));