CREATE TABLE "catalogue_items" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"item_name" text NOT NULL,
	"items_description" text NOT NULL,
	"item_database_url" text NOT NULL,
	"items_guideline" text NOT NULL,
	"item_url" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "catalogue_items_category_unique" UNIQUE("item_database_url"),
	CONSTRAINT "catalogue_items_category_check" CHECK ("catalogue_items"."item_database_url" in ('web-design', 'video-editing', 'seo-service', 'graphic-design', 'facebook-marketing'))
);
--> statement-breakpoint
CREATE TABLE "simple_items" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"format" text NOT NULL,
	"canva_link" text NOT NULL,
	"image_link" text NOT NULL,
	"category" text NOT NULL,
	"free_or_paid" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "simple_items_format_check" CHECK ("simple_items"."format" in ('Facebook', 'Instagram', 'YouTube')),
	CONSTRAINT "simple_items_free_or_paid_check" CHECK ("simple_items"."free_or_paid" in ('Paid', 'Free'))
);
--> statement-breakpoint
CREATE INDEX "catalogue_items_created_idx" ON "catalogue_items" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "simple_items_created_idx" ON "simple_items" USING btree ("created_at");