import { describe, expect, it } from "vitest";
import {
  PRESET_COLUMNS,
  consentOf,
  detectPreset,
  ignoredColumns,
  importedWindow,
  mappingFor,
  mappingProblems,
  noMapping,
  parseImportDate,
  proposeMapping,
  readRow,
} from "./imports";

const TZ = "Europe/London";
const NOW = new Date("2026-11-29T12:00:00.000Z");
const DAY = 86_400_000;

describe("presets", () => {
  it("recognises each export by its columns and maps the ones we read", () => {
    for (const preset of ["ours", "ghost", "pmpro", "memberpress"] as const) {
      const headers = PRESET_COLUMNS[preset].columns;
      expect(detectPreset(headers)).toBe(preset);
      const mapping = mappingFor(headers, preset);
      for (const [field, header] of Object.entries(PRESET_COLUMNS[preset].reads))
        expect(headers[mapping[field as keyof typeof mapping]!]).toBe(header);
    }
  });

  it("reads the PMPro members list as it is written, and the ones of older versions (no membership_id)", () => {
    const old =
      "id,username,firstname,lastname,email,billing firstname,billing lastname,address1,address2,city,state,zipcode,country,phone,membership,fee,term,joined,expires".split(
        ",",
      );
    const { preset, mapping } = proposeMapping(old);
    expect(preset).toBe("pmpro");
    expect(old[mapping.membershipEnds!]).toBe("expires");
    expect(old[mapping.email!]).toBe("email");
  });

  it("reads our own export whatever zone or currency its headings name", () => {
    const ours = [
      "\uFEFFEmail",
      "Name",
      "Joined (UTC)",
      "Membership Package",
      "Membership Ends (UTC)",
      "Newsletter",
      "Membership",
      "Orders",
      "Total Spent (GBP)",
      "Last Order (Europe/Paris)",
      "Customer ID",
    ];
    const { preset, mapping } = proposeMapping(ours);
    expect(preset).toBe("ours");
    expect(mapping.email).toBe(0);
    expect(mapping.membershipEnds).toBe(4);
    expect(ignoredColumns(ours, mapping)).toEqual([
      "Membership",
      "Orders",
      "Total Spent (GBP)",
      "Last Order (Europe/Paris)",
      "Customer ID",
    ]);
  });

  it("guesses a hand-made file from plain words, each column once", () => {
    const { preset, mapping } = proposeMapping(["E-mail", "First Name", "Surname", "Plan", "Expiry", "Notes"]);
    expect(preset).toBe("custom");
    expect(mapping).toMatchObject({ email: 0, firstName: 1, lastName: 2, membershipPackage: 3, membershipEnds: 4 });
    expect(mapping.name).toBeNull();
  });
});

describe("mapping problems", () => {
  it("asks for the email column, refuses a column used twice and one that is not there", () => {
    expect(mappingProblems(noMapping(), 3)).toEqual(["Choose the column that holds the email address."]);
    expect(mappingProblems({ ...noMapping(), email: 0, name: 0 }, 3)).toEqual([
      "Name and Email use the same column: choose one.",
    ]);
    expect(mappingProblems({ ...noMapping(), email: 5 }, 3)).toEqual(["Email: no such column."]);
    expect(mappingProblems({ ...noMapping(), email: 2 }, 3)).toEqual([]);
  });
});

describe("dates", () => {
  it("keeps an exact moment exactly, reads local times in the site's zone, and a day as its start (or end)", () => {
    expect(parseImportDate("2027-03-04T05:06:07.891Z", TZ)!.toISOString()).toBe("2027-03-04T05:06:07.891Z");
    expect(parseImportDate("2027-07-01 10:00:00", TZ)!.toISOString()).toBe("2027-07-01T09:00:00.000Z");
    expect(parseImportDate("12/31/2026", TZ)!.toISOString()).toBe("2026-12-31T00:00:00.000Z");
    expect(parseImportDate("12/31/2026", TZ, true)!.toISOString()).toBe("2026-12-31T23:59:59.000Z");
    expect(parseImportDate("2027-06-30", TZ, true)!.toISOString()).toBe("2027-06-30T22:59:59.000Z");
    expect(parseImportDate("", TZ)).toBeNull();
    expect(parseImportDate("Never", TZ)).toBeNull();
    for (const bad of ["31/31/2026", "tomorrow", "2026-02-30", "=NOW()"])
      expect(parseImportDate(bad, TZ)).toBeUndefined();
  });
});

describe("a row", () => {
  const mapping = { ...noMapping(), email: 0, name: 1, membershipEnds: 2, newsletter: 3, joinedAt: 4 };
  const row = (cells: string[]) => readRow(cells, mapping, TZ, NOW);

  it("is read: the address lower-cased, the end exact, consent as the file says", () => {
    expect(row(["Ada@Example.ORG", "Ada", "2027-01-01T00:00:00.000Z", "true", "2020-05-06T07:08:09.000Z"])).toEqual({
      ok: true,
      row: {
        email: "ada@example.org",
        name: "Ada",
        joinedAt: "2020-05-06T07:08:09.000Z",
        membershipPackage: null,
        membershipEnds: "2027-01-01T00:00:00.000Z",
        newsletter: "confirmed",
        notes: [],
      },
    });
  });

  it("keeps a formula cell as text, never read as anything else", () => {
    const verdict = row(["f@example.org", '=HYPERLINK("http://x")', "", "", ""]);
    expect(verdict.ok && verdict.row.name).toBe('=HYPERLINK("http://x")');
    expect(row(["g@example.org", "\t+1 and -2 @x", "", "", ""]).ok).toBe(true);
    // Our export's guard quote comes off again: the same text round trips.
    const guarded = row(["h@example.org", "'=1+2", "", "", ""]);
    expect(guarded.ok && guarded.row.name).toBe("=1+2");
    const quoted = row(["i@example.org", "'Tis me", "", "", ""]);
    expect(quoted.ok && quoted.row.name).toBe("'Tis me");
  });

  it("refuses what it cannot read, saying why", () => {
    expect(row(["not-an-email", "", "", "", ""])).toEqual({
      ok: false,
      reason: '"not-an-email" is not an email address.',
    });
    expect(row(["", "", "", "", ""])).toEqual({ ok: false, reason: "The email address is empty." });
    expect(row(["a@example.org", "", "soon", "", ""])).toEqual({
      ok: false,
      reason: 'The membership end date "soon" is not a date.',
    });
    expect(row(["a@example.org", "", "", "", "yesterday"])).toEqual({
      ok: false,
      reason: 'The joined date "yesterday" is not a date.',
    });
    expect(row(["a@example.org", "", "", "maybe", ""])).toEqual({
      ok: false,
      reason: 'The newsletter cell "maybe" is neither yes, no nor pending.',
    });
    expect(row(["a@example.org", "", "2040-01-01T00:00:00Z", "", ""])).toMatchObject({ ok: false });
  });

  it("leaves out a membership that has ended, with a notice", () => {
    const verdict = row(["old@example.org", "", "2025-01-01T00:00:00Z", "no", ""]);
    expect(verdict).toMatchObject({
      ok: true,
      row: { membershipEnds: null, notes: ["The membership has ended: it is not imported."] },
    });
  });

  it("joins first and last names when there is no full name", () => {
    const split = { ...noMapping(), email: 0, firstName: 1, lastName: 2 };
    expect(readRow(["a@example.org", "Ada", "Lovelace"], split, TZ, NOW)).toMatchObject({
      row: { name: "Ada Lovelace" },
    });
  });
});

describe("consent and the window", () => {
  it("reads yes, no and pending in the words exports use", () => {
    expect(["true", "Yes", "1", "confirmed"].map(consentOf)).toEqual(Array(4).fill("confirmed"));
    expect(["false", "", "unsubscribed", "0"].map(consentOf)).toEqual(Array(4).fill("none"));
    expect(consentOf("pending")).toBe("unconfirmed");
    expect(consentOf("perhaps")).toBeNull();
  });

  it("lays a given membership back from its end so that it ends exactly there", () => {
    const ends = new Date(NOW.getTime() + 10.25 * DAY);
    const { days, activatedAt } = importedWindow(ends, NOW);
    expect(days).toBe(11);
    expect(activatedAt.getTime() + days * DAY).toBe(ends.getTime());
    expect(activatedAt.getTime()).toBeLessThanOrEqual(NOW.getTime());
    expect(NOW.getTime() - activatedAt.getTime()).toBeLessThan(DAY);
  });
});
