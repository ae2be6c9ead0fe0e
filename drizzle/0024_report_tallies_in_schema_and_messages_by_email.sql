-- report_days and report_months were made by migration 0022 (with their triggers); this migration only brings them
-- into the schema's snapshot, so the next generated migration does not make them again.
-- A person's contact messages by their address: the export of their data and their erasure (decision 045).
CREATE INDEX "messages_email_lower_idx" ON "messages" USING btree (lower("email"));
