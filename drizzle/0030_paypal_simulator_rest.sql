CREATE TABLE "paypal_simulator_rest_objects" (
	"id" text PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"parent_id" text,
	"data" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "paypal_simulator_rest_requests" (
	"key" text PRIMARY KEY NOT NULL,
	"status" integer NOT NULL,
	"body" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "paypal_simulator_webhook_transmissions" (
	"id" text PRIMARY KEY NOT NULL,
	"seq" bigint GENERATED ALWAYS AS IDENTITY (sequence name "paypal_simulator_webhook_transmissions_seq_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"webhook_id" text NOT NULL,
	"event_id" text NOT NULL,
	"body" text NOT NULL,
	"transmission_time" text NOT NULL,
	"signature" text NOT NULL,
	"answered_status" integer,
	"sent_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "paypal_simulator_rest_objects_kind_idx" ON "paypal_simulator_rest_objects" USING btree ("kind","created_at");--> statement-breakpoint
CREATE INDEX "paypal_simulator_rest_objects_parent_idx" ON "paypal_simulator_rest_objects" USING btree ("parent_id");--> statement-breakpoint
CREATE INDEX "paypal_simulator_webhook_transmissions_event_idx" ON "paypal_simulator_webhook_transmissions" USING btree ("event_id");