import { describe, expect, it } from "vitest";
import { checkEndpointHost, guardedLookup, isBlockedAddress } from "./addresses";

describe("isBlockedAddress", () => {
  it.each([
    "127.0.0.1",
    "127.255.0.9",
    "10.1.2.3",
    "172.16.0.1",
    "172.31.255.255",
    "192.168.1.1",
    "169.254.169.254",
    "100.64.0.1",
    "0.0.0.0",
    "::1",
    "::",
    "fc00::1",
    "fd12:3456::1",
    "fe80::1",
    "::ffff:127.0.0.1",
    "::ffff:10.0.0.1",
    "not-an-ip",
  ])("refuses %s", (ip) => expect(isBlockedAddress(ip)).toBe(true));
  it.each(["93.184.216.34", "8.8.8.8", "172.32.0.1", "2606:4700::1111", "::ffff:8.8.8.8"])("allows %s", (ip) =>
    expect(isBlockedAddress(ip)).toBe(false),
  );
});

describe("checkEndpointHost", () => {
  it("refuses loopback, private and link-local hosts with a sentence on the url field", async () => {
    for (const url of ["https://127.0.0.1/", "https://10.0.0.8/x", "https://169.254.169.254/", "https://[::1]:8443/"]) {
      await expect(checkEndpointHost(new URL(url), false)).rejects.toMatchObject({
        status: 400,
        errors: [{ field: "url", message: expect.stringMatching(/private, loopback or link-local/) }],
      });
    }
  });
  it("refuses a name that resolves to loopback (localhost)", async () => {
    await expect(checkEndpointHost(new URL("https://localhost/"), false)).rejects.toMatchObject({ status: 400 });
  });
  it("allows them all with the local-testing setting", async () => {
    await expect(checkEndpointHost(new URL("https://127.0.0.1/"), true)).resolves.toBeUndefined();
    await expect(checkEndpointHost(new URL("https://localhost/"), true)).resolves.toBeUndefined();
  });
});

describe("guardedLookup", () => {
  const look = (host: string, allow: boolean, all = false) =>
    new Promise<{ error: NodeJS.ErrnoException | null; address: unknown }>((resolve) =>
      guardedLookup(allow)(host, { all }, (error, address) => resolve({ error, address })),
    );
  it("refuses a name whose addresses include a blocked one, at connect time", async () => {
    const { error } = await look("localhost", false);
    expect(error?.code).toBe("EBLOCKED");
  });
  it("hands over the very address it checked", async () => {
    const { error, address } = await look("localhost", true);
    expect(error).toBeNull();
    expect(["127.0.0.1", "::1"]).toContain(address);
    const many = await look("localhost", true, true);
    expect(Array.isArray(many.address)).toBe(true);
  });
});
