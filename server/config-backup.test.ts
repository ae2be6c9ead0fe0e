import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "./config";

describe("BACKUP_BEFORE_MIGRATION (issue 38, part 2)", () => {
  it("is on by default, and false turns it off", () => {
    expect(loadConfig({ NODE_ENV: "test" }).backup.beforeMigration).toBe(true);
    expect(loadConfig({ NODE_ENV: "test", BACKUP_BEFORE_MIGRATION: "" }).backup.beforeMigration).toBe(true);
    expect(loadConfig({ NODE_ENV: "test", BACKUP_BEFORE_MIGRATION: "false" }).backup.beforeMigration).toBe(false);
    expect(loadConfig({ NODE_ENV: "test", BACKUP_BEFORE_MIGRATION: "true" }).backup.beforeMigration).toBe(true);
  });

  it("refuses anything else, naming the setting", () => {
    for (const value of ["no", "0", "False"]) {
      expect(() => loadConfig({ NODE_ENV: "test", BACKUP_BEFORE_MIGRATION: value })).toThrow(ConfigError);
      expect(() => loadConfig({ NODE_ENV: "test", BACKUP_BEFORE_MIGRATION: value })).toThrow(
        /BACKUP_BEFORE_MIGRATION.*must be true or false/,
      );
    }
  });
});
