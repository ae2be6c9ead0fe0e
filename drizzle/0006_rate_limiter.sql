CREATE TABLE "rate_limiter" (
	"key" varchar(255) PRIMARY KEY NOT NULL,
	"points" integer DEFAULT 0 NOT NULL,
	"expire" bigint
);
--> statement-breakpoint
DROP TABLE "rate_limits" CASCADE;--> statement-breakpoint
CREATE INDEX "rate_limiter_expire_idx" ON "rate_limiter" USING btree ("expire");