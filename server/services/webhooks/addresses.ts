import { lookup as dnsLookup, type LookupAddress } from "node:dns";
import { BlockList, isIP } from "node:net";
import { AppError } from "#server/lib/errors.ts";

/**
 * The networks a webhook may not reach (the SSRF guard, docs/decisions/078): this machine and its neighbours rather
 * than the internet. IPv4 private, loopback, link-local (cloud metadata at 169.254.169.254), carrier-grade NAT,
 * benchmarking, multicast and reserved ranges; IPv6 loopback, unspecified, unique-local, link-local, multicast,
 * documentation, and the IPv4 ranges again when mapped into IPv6.
 */
export const BLOCKED = new BlockList();
const V4: [string, number][] = [
  ["0.0.0.0", 8],
  ["10.0.0.0", 8],
  ["100.64.0.0", 10],
  ["127.0.0.0", 8],
  ["169.254.0.0", 16],
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.0.2.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["198.51.100.0", 24],
  ["203.0.113.0", 24],
  ["224.0.0.0", 4],
  ["240.0.0.0", 4],
];
for (const [net, bits] of V4) {
  BLOCKED.addSubnet(net, bits, "ipv4");
  // The same range written as an IPv4-mapped IPv6 address (::ffff:10.0.0.1).
  BLOCKED.addSubnet(`::ffff:${net}`, 96 + bits, "ipv6");
}
for (const [net, bits] of [
  ["::", 128],
  ["::1", 128],
  ["fc00::", 7],
  ["fe80::", 10],
  ["ff00::", 8],
  ["2001:db8::", 32],
  ["64:ff9b:1::", 48],
] as [string, number][])
  BLOCKED.addSubnet(net, bits, "ipv6");

/** Whether an IP address (v4 or v6) is one a webhook may not reach. */
export function isBlockedAddress(ip: string): boolean {
  const family = isIP(ip);
  if (family === 0) return true;
  return BLOCKED.check(ip, family === 4 ? "ipv4" : "ipv6");
}

/** The sentence for an address refused by the guard. */
export const REFUSED =
  "This address leads to a private, loopback or link-local network, which webhooks may not reach. Use a public address.";

/** The host of a URL without IPv6's brackets. */
export const hostOf = (url: URL) => url.hostname.replace(/^\[|\]$/g, "");

/** Every address `host` resolves to (an IP literal is its own); a name that does not resolve throws DNS's error. */
export async function resolveAll(host: string): Promise<LookupAddress[]> {
  const family = isIP(host);
  if (family) return [{ address: host, family }];
  return new Promise((resolve, reject) =>
    dnsLookup(host, { all: true, verbatim: true }, (error, addresses) => (error ? reject(error) : resolve(addresses))),
  );
}

/**
 * The check at save time: the host of `url` resolves, and (unless `allowPrivate`) to public addresses only. A refusal
 * is a 400 on the url field.
 */
export async function checkEndpointHost(url: URL, allowPrivate: boolean): Promise<void> {
  let addresses: LookupAddress[];
  try {
    addresses = await resolveAll(hostOf(url));
  } catch {
    throw new AppError(400, "This address's host name cannot be found.", [
      { field: "url", message: "This address's host name cannot be found" },
    ]);
  }
  if (!allowPrivate && addresses.some((a) => isBlockedAddress(a.address)))
    throw new AppError(400, REFUSED, [{ field: "url", message: REFUSED }]);
}

/**
 * A `lookup` for http(s).request that resolves the name, refuses it when any address it gives is blocked (unless
 * `allowPrivate`), and hands the socket the address it checked: the connection goes where the check looked, whatever
 * the DNS answers a moment later (no rebinding between the check and the connect).
 */
export function guardedLookup(allowPrivate: boolean) {
  return (
    hostname: string,
    options: { all?: boolean } | number | undefined,
    callback: (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void,
  ) => {
    resolveAll(hostname.replace(/^\[|\]$/g, "")).then(
      (addresses) => {
        if (!allowPrivate && addresses.some((a) => isBlockedAddress(a.address))) {
          const error: NodeJS.ErrnoException = new Error(REFUSED);
          error.code = "EBLOCKED";
          return callback(error, "");
        }
        const all = typeof options === "object" && options?.all;
        if (all) return callback(null, addresses);
        const first = addresses[0]!;
        callback(null, first.address, first.family);
      },
      (error: NodeJS.ErrnoException) => callback(error, ""),
    );
  };
}
