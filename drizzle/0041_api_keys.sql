CREATE TABLE "api_keys" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"public_id" text NOT NULL,
	"secret_hash" text NOT NULL,
	"name" text NOT NULL,
	"areas" text[] NOT NULL,
	"access" text NOT NULL,
	"created_by_id" text,
	"created_by_email" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_used_at" timestamp with time zone,
	"revoked_at" timestamp with time zone,
	"revoked_by_email" text,
	CONSTRAINT "api_keys_access_check" CHECK ("api_keys"."access" in ('read', 'write')),
	CONSTRAINT "api_keys_areas_check" CHECK ("api_keys"."areas" <@ array['content', 'media', 'items', 'messages', 'subscribers', 'orders', 'customers', 'reports', 'payments', 'users', 'settings', 'backups', 'exports', 'activity']::text[] and cardinality("api_keys"."areas") > 0),
	CONSTRAINT "api_keys_public_id_check" CHECK ("api_keys"."public_id" ~ '^[0-9a-f]{12}$')
);
--> statement-breakpoint
CREATE UNIQUE INDEX "api_keys_public_id_idx" ON "api_keys" USING btree ("public_id");--> statement-breakpoint
CREATE INDEX "api_keys_created_idx" ON "api_keys" USING btree ("created_at" DESC NULLS LAST);