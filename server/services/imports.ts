import { withDeps } from "#server/lib/with-deps.ts";
import { check } from "./imports/check";
import { checkFile, start, upload } from "./imports/commands";
import { IMPORT_QUEUE, type ImportsDeps } from "./imports/model";
import { get, list, rows } from "./imports/queries";
import { run, runJob } from "./imports/run";

export {
  IMPORT_BATCH_ROWS,
  IMPORT_MESSAGES,
  IMPORT_QUEUE,
  IMPORTED_REASON,
  importSettingsSchema,
  type ImportRecord,
  type ImportRowRecord,
  type ImportsDeps,
} from "./imports/model";
export { forgetPerson } from "./imports/forget";

/**
 * Member imports (issue 37 part 3, decision 079): a CSV file uploaded to DATA_DIR/imports (streamed, at most
 * MAX_IMPORT_BYTES), its columns mapped to ours (a preset or by hand), a dry run that reads the file once and stores
 * each row's verdict (create, update, skip, refuse with the reason), then the import itself in the background, in
 * committed batches from a cursor: customers through the customers service, memberships through its grant, subscribers
 * through the newsletter service. Each step is idempotent, so a job killed half-way runs again from its cursor and a
 * second import of the same file changes nothing. The only writer of imports and import_rows. The dry run is in
 * imports/check.ts, the import in imports/run.ts, the staff's steps in imports/commands.ts, each a function over the
 * same dependencies that this factory wires (decision 085).
 */
export function createImportsService(deps: ImportsDeps) {
  const service = {
    runJob: withDeps(deps, runJob),
    check: withDeps(deps, check),
    run: withDeps(deps, run),
    upload: withDeps(deps, upload),
    get: withDeps(deps, get),
    list: withDeps(deps, list),
    rows: withDeps(deps, rows),
    checkFile: withDeps(deps, checkFile),
    start: withDeps(deps, start),
  };
  deps.jobs.worker(IMPORT_QUEUE, service.runJob, {
    title: "Member import: the file checked or imported",
    expireInSeconds: 60 * 60,
  });
  return service;
}

export type ImportsService = ReturnType<typeof createImportsService>;
