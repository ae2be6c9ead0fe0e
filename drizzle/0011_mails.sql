CREATE TABLE "mail_settings" (
	"kind" text PRIMARY KEY NOT NULL,
	"enabled" boolean NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "membership_reminders" (
	"user_id" text NOT NULL,
	"kind" text NOT NULL,
	"ends_at" timestamp with time zone NOT NULL,
	"queued_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "membership_reminders_user_id_kind_ends_at_pk" PRIMARY KEY("user_id","kind","ends_at")
);
--> statement-breakpoint
ALTER TABLE "membership_reminders" ADD CONSTRAINT "membership_reminders_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "orders_membership_end_idx" ON "orders" USING btree ("membership_valid") WHERE "orders"."payment_status" = 'Paid' and "orders"."order_status" = 'Delivered';