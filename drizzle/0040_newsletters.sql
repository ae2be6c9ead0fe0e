CREATE TABLE "newsletter_recipients" (
	"newsletter_id" uuid NOT NULL,
	"address" text NOT NULL,
	"id" uuid DEFAULT gen_random_uuid() NOT NULL,
	"member" boolean DEFAULT false NOT NULL,
	"subscriber_id" uuid,
	"status" text DEFAULT 'queued' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"attempt_id" uuid,
	"error" text,
	"sent_at" timestamp with time zone,
	CONSTRAINT "newsletter_recipients_newsletter_id_address_pk" PRIMARY KEY("newsletter_id","address"),
	CONSTRAINT "newsletter_recipients_address_check" CHECK ("newsletter_recipients"."address" = lower("newsletter_recipients"."address")),
	CONSTRAINT "newsletter_recipients_status_check" CHECK ("newsletter_recipients"."status" in ('queued', 'sending', 'sent', 'failed', 'suppressed'))
);
--> statement-breakpoint
CREATE TABLE "newsletters" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"subject" text NOT NULL,
	"preview_text" text DEFAULT '' NOT NULL,
	"article_id" uuid,
	"body_html" text DEFAULT '' NOT NULL,
	"audience" text[] NOT NULL,
	"state" text DEFAULT 'draft' NOT NULL,
	"send_at" timestamp with time zone,
	"created_by" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"started_at" timestamp with time zone,
	"finished_at" timestamp with time zone,
	CONSTRAINT "newsletters_state_check" CHECK ("newsletters"."state" in ('draft', 'scheduled', 'sending', 'sent', 'partly-sent')),
	CONSTRAINT "newsletters_scheduled_check" CHECK ("newsletters"."state" <> 'scheduled' or "newsletters"."send_at" is not null)
);
--> statement-breakpoint
CREATE TABLE "suppressions" (
	"address" text PRIMARY KEY NOT NULL,
	"reason" text NOT NULL,
	"source" text DEFAULT '' NOT NULL,
	"note" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "suppressions_address_check" CHECK ("suppressions"."address" = lower("suppressions"."address")),
	CONSTRAINT "suppressions_reason_check" CHECK ("suppressions"."reason" in ('bounce', 'complaint', 'unsubscribe', 'manual'))
);
--> statement-breakpoint
ALTER TABLE "newsletter_recipients" ADD CONSTRAINT "newsletter_recipients_newsletter_id_newsletters_id_fk" FOREIGN KEY ("newsletter_id") REFERENCES "public"."newsletters"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "newsletters" ADD CONSTRAINT "newsletters_article_id_articles_id_fk" FOREIGN KEY ("article_id") REFERENCES "public"."articles"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "newsletter_recipients_id_idx" ON "newsletter_recipients" USING btree ("id");--> statement-breakpoint
CREATE INDEX "newsletter_recipients_status_idx" ON "newsletter_recipients" USING btree ("newsletter_id","status");--> statement-breakpoint
CREATE INDEX "newsletters_created_idx" ON "newsletters" USING btree ("created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "newsletters_due_idx" ON "newsletters" USING btree ("send_at") WHERE "newsletters"."state" = 'scheduled';--> statement-breakpoint
CREATE INDEX "suppressions_created_idx" ON "suppressions" USING btree ("created_at" DESC NULLS LAST,"address");