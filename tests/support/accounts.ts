import { expect } from "vitest";
import type { TestApp } from "./app";
import { CookieJar } from "./session";

/**
 * Accounts for the tests, through better-auth's own calls as the register and login forms make them. `site` is where
 * the calls go: a test app in process (startTestApp) or a started server (startBuiltServer): anything with its URL.
 */
type Site = { url: string };

/** The password of a test customer unless a test names another. */
export const CUSTOMER_PASSWORD = "quiet-harbour-71";

interface CallOptions {
  /** The jar that sends its cookies with the call and keeps what the answer sets (a new one by default). */
  jar?: CookieJar;
  /** More request headers (X-Forwarded-For, for the tests of the client address). */
  headers?: Record<string, string>;
}

async function post(site: Site, path: string, json: unknown, { jar = new CookieJar(), headers }: CallOptions) {
  const res = await fetch(site.url + path, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/json", ...(jar.size ? { cookie: jar.header() } : {}), ...headers },
    body: JSON.stringify(json),
  });
  jar.store(res);
  return { res, jar };
}

/** A sign-up, whatever it answers: for the tests of sign-up itself. */
export const attemptSignUp = (
  site: Site,
  email: string,
  { password = CUSTOMER_PASSWORD, name = "", ...options }: CallOptions & { password?: string; name?: string } = {},
) => post(site, "/api/auth/sign-up/email", { email, password, name, acceptTerms: true }, options);

/** A sign-in, whatever it answers: for the tests of sign-in itself. */
export const attemptSignIn = (site: Site, email: string, password: string, options: CallOptions = {}) =>
  post(site, "/api/auth/sign-in/email", { email, password }, options);

/** A new customer, signed in: the jar holds their session. */
export async function signUp(
  site: Site,
  email: string,
  options: CallOptions & { password?: string; name?: string } = {},
): Promise<CookieJar> {
  const { res, jar } = await attemptSignUp(site, email, options);
  expect(res.status, `signing up ${email}`).toBe(200);
  return jar;
}

/** An existing account, signed in: the jar holds its session. */
export async function signIn(site: Site, email: string, password: string, options: CallOptions = {}) {
  const { res, jar } = await attemptSignIn(site, email, password, options);
  expect(res.status, `signing in ${email}`).toBe(200);
  return jar;
}

/** The first administrator of a test app (its ADMIN_EMAIL and ADMIN_PASSWORD), signed in. */
export function signInAsAdmin(app: TestApp, options: CallOptions = {}) {
  const { adminEmail, adminPassword } = app.config;
  if (!adminEmail || !adminPassword) throw new Error("The test app was started without ADMIN_EMAIL and ADMIN_PASSWORD");
  return signIn(app, adminEmail, adminPassword, options);
}

/**
 * A staff member in `role` (decision 036), signed in: a customer account whose email is confirmed, listed in the admin
 * list with that role, as an invitation followed by choosing a password leaves it. `pool` is the site's database.
 */
export async function signUpStaff(
  site: Site,
  pool: { query: (sql: string, values: unknown[]) => Promise<unknown> },
  email: string,
  role: "Admin" | "Editor",
  options: CallOptions & { password?: string } = {},
): Promise<CookieJar> {
  const jar = await signUp(site, email, options);
  await pool.query(`update "user" set email_verified = true where lower(email) = lower($1)`, [email]);
  await pool.query(`insert into admin_users (user_email, user_role) values (lower($1), $2)`, [email, role]);
  return jar;
}

/**
 * A new customer made a member by the admin (`admin`: a staff jar), as the studio does by hand: an order of the first
 * package placed, then set Paid and Delivered. The jar holds the member's session.
 */
export async function signUpMember(site: Site, admin: CookieJar, email: string): Promise<CookieJar> {
  const jar = await signUp(site, email);
  const json = (j: CookieJar) => ({ "content-type": "application/json", cookie: j.header(), origin: site.url });
  const [pkg] = (await (await fetch(`${site.url}/api/pricings`)).json()) as { _id: string }[];
  const placed = await fetch(`${site.url}/api/new-order`, {
    method: "POST",
    headers: json(jar),
    body: JSON.stringify({
      packageId: pkg!._id,
      customerName: "Mia Member",
      customerAddress: "1 Dock St",
      customerCountry: "UK",
    }),
  });
  expect(placed.status, `${email}'s order`).toBe(201);
  const id = ((await placed.json()) as { insertedId: string }).insertedId;
  for (const [path, body] of [
    [`/api/order/${id}`, { paymentStatus: "Paid" }],
    [`/api/order-status/${id}`, { orderStatus: "Delivered" }],
  ] as const) {
    const res = await fetch(site.url + path, { method: "PUT", headers: json(admin), body: JSON.stringify(body) });
    expect(res.status, `${email}'s order ${path}`).toBe(200);
  }
  return jar;
}
