import { sql } from "drizzle-orm";
import {
  check,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";

/** Every editable public section's records (see app/content/registry.ts): one row per record. */
export const contentEntries = pgTable(
  "content_entries",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    type: text("type").notNull(),
    data: jsonb("data").$type<Record<string, unknown>>().notNull(),
    position: integer("position").notNull().default(0),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("content_entries_type_position_idx").on(t.type, t.position, t.createdAt)],
);

/** Contact messages sent from the public site. */
export const messages = pgTable(
  "messages",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    name: text("name").notNull(),
    email: text("email").notNull(),
    number: text("number").notNull().default(""),
    subject: text("subject").notNull(),
    message: text("message").notNull(),
    messageStatus: text("message_status").notNull().default("UnRead"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check("messages_status_check", sql`${t.messageStatus} in ('UnRead', 'Read')`),
    index("messages_status_created_idx").on(t.messageStatus, t.createdAt),
  ],
);

/** Newsletter subscribers; an address is stored once (case-insensitively). */
export const subscribers = pgTable(
  "subscribers",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    subemail: text("subemail").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("subscribers_subemail_lower_idx").on(sql`lower(${t.subemail})`),
    index("subscribers_created_idx").on(t.createdAt),
  ],
);

/** Fixed-window counters for rate limits, shared by every app instance on the same database. */
export const rateLimits = pgTable(
  "rate_limits",
  {
    key: text("key").notNull(),
    windowStart: timestamp("window_start", { withTimezone: true }).notNull(),
    count: integer("count").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.key, t.windowStart] }), index("rate_limits_window_idx").on(t.windowStart)],
);
