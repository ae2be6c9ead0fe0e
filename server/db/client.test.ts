import { describe, expect, it } from "vitest";
import { isDatabaseUnavailable } from "./client";

const withCode = (code: string, message = "x") => Object.assign(new Error(message), { code });

describe("isDatabaseUnavailable (issue 12, D11)", () => {
  it.each([
    ["a refused connection", withCode("ECONNREFUSED")],
    ["a missing socket", withCode("ENOENT")],
    ["an admin shutdown", withCode("57P01")],
    ["a server starting up", withCode("57P03")],
    ["a connection failure", withCode("08006")],
    ["too many connections", withCode("53300")],
    ["a pool timeout", new Error("timeout exceeded when trying to connect")],
    ["a dropped connection", new Error("Connection terminated unexpectedly")],
    ["wrapped by drizzle", Object.assign(new Error("Failed query"), { cause: withCode("ECONNREFUSED") })],
    ["both addresses refused", new AggregateError([withCode("ECONNREFUSED"), withCode("ECONNREFUSED")])],
  ])("%s is an outage", (_label, error) => {
    expect(isDatabaseUnavailable(error)).toBe(true);
  });

  it.each([
    ["a unique violation", withCode("23505")],
    ["a syntax error", withCode("42601")],
    ["our own bug", new TypeError("x is undefined")],
    ["nothing", undefined],
  ])("%s is not", (_label, error) => {
    expect(isDatabaseUnavailable(error)).toBe(false);
  });
});
