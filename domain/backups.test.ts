import { describe, expect, it } from "vitest";
import { beyondKeep, byAge, placesLabel } from "./backups";

describe("beyondKeep", () => {
  const names = [
    "atelier-backup-20261127T030000Z.tar",
    "atelier-backup-20261125T030000Z.tar",
    "atelier-backup-20261126T101500Z-manual.tar",
    "atelier-backup-20261128T030000Z.tar",
  ];
  it("answers all but the newest `keep`, oldest first, whatever order they came in", () => {
    expect(beyondKeep(names, 2)).toEqual([
      "atelier-backup-20261125T030000Z.tar",
      "atelier-backup-20261126T101500Z-manual.tar",
    ]);
    expect(beyondKeep(names, 1)).toHaveLength(3);
  });
  it("keeps everything when there are no more than `keep`", () => {
    expect(beyondKeep(names, 4)).toEqual([]);
    expect(beyondKeep(names, 1000)).toEqual([]);
    expect(beyondKeep([], 3)).toEqual([]);
  });
  it("a second backup of the same second is newer than the first", () => {
    const same = ["atelier-backup-20261129T070202Z-2.tar", "atelier-backup-20261129T070202Z.tar"];
    expect(beyondKeep(same, 1)).toEqual(["atelier-backup-20261129T070202Z.tar"]);
    expect([...same].sort(byAge)).toEqual([same[1], same[0]]);
  });
  it("always keeps the backup just made, then the newest of the others", () => {
    const same = [
      "atelier-backup-20261129T070202Z.tar",
      "atelier-backup-20261129T070202Z-2.tar",
      "atelier-backup-20261129T070202Z-manual.tar",
    ];
    // "-2" was made last in that second, though "-manual" sorts after it.
    expect(beyondKeep(same, 1, same[1])).toEqual([same[0], same[2]]);
    expect(beyondKeep(same, 2, same[1])).toEqual([same[0]]);
    expect(beyondKeep(names, 2, "atelier-backup-20261125T030000Z.tar")).toEqual([
      "atelier-backup-20261126T101500Z-manual.tar",
      "atelier-backup-20261127T030000Z.tar",
    ]);
    // A name that is not among them changes nothing.
    expect(beyondKeep(names, 2, "atelier-backup-20261201T030000Z.tar")).toEqual(beyondKeep(names, 2));
  });
  it("counts a name listed twice once", () => {
    expect(beyondKeep([names[0]!, names[0]!, names[1]!], 1)).toEqual([names[1]]);
  });
  it("refuses a keep below 1: it would remove the backup just made", () => {
    expect(() => beyondKeep(names, 0)).toThrow(/BACKUP_KEEP/);
    expect(() => beyondKeep(names, 1.5)).toThrow(/BACKUP_KEEP/);
  });
});

describe("placesLabel", () => {
  it("names the places of a backup in words", () => {
    expect(placesLabel(["server"])).toBe("On this server");
    expect(placesLabel(["bucket"])).toBe("In the bucket");
    expect(placesLabel(["bucket", "server"])).toBe("On this server and in the bucket");
    expect(placesLabel([])).toBe("Nowhere");
  });
});
