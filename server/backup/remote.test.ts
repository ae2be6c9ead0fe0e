import { describe, expect, it } from "vitest";
import { reasonOf, targetLabel } from "./remote";
import { toDatabase } from "./restore";

describe("reasonOf", () => {
  it("says the service's error code and message, and the HTTP status when there is one", () => {
    const noBucket = Object.assign(new Error("The specified bucket does not exist"), {
      name: "NoSuchBucket",
      $metadata: { httpStatusCode: 404 },
    });
    expect(reasonOf(noBucket)).toBe("NoSuchBucket: The specified bucket does not exist (HTTP 404)");
    const refused = Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:9000"), { code: "ECONNREFUSED" });
    expect(reasonOf(refused)).toBe("ECONNREFUSED: connect ECONNREFUSED 127.0.0.1:9000");
    expect(reasonOf("plain")).toBe("plain");
  });
});

describe("targetLabel", () => {
  it("writes a bucket and prefix as people set them", () => {
    expect(targetLabel({ bucket: "agency-backups", prefix: "atelier/" })).toBe("s3://agency-backups/atelier/");
    expect(targetLabel({ bucket: "agency-backups", prefix: "" })).toBe("s3://agency-backups/");
  });
});

describe("toDatabase", () => {
  it("points a connection at another database of the same server, its password kept", () => {
    expect(toDatabase({ host: "/run/pg", user: "postgres", password: "pw", database: "atelier" }, "scratch")).toEqual({
      host: "/run/pg",
      user: "postgres",
      password: "pw",
      database: "scratch",
    });
    expect(
      toDatabase({ connectionString: "postgresql://app:s%40cret@db.internal:5432/atelier?sslmode=require" }, "scratch"),
    ).toEqual({ connectionString: "postgresql://app:s%40cret@db.internal:5432/scratch?sslmode=require" });
  });
});
