/**
 * Waiting for a state, never for a time (issue 39): the tests' own polling helpers. They sleep between their looks, so
 * they live here, where the lint rule against fixed sleeps does not look.
 */

/**
 * Looks at `check` every `interval` ms until it returns something truthy, and returns that; throws `what: not within …`
 * after `timeout` ms.
 */
export async function until<T>(
  what: string,
  check: () => Promise<T> | T,
  timeout = 20_000,
  interval = 50,
): Promise<NonNullable<T>> {
  const started = Date.now();
  for (;;) {
    const value = await check();
    if (value) return value as NonNullable<T>;
    if (Date.now() - started > timeout) throw new Error(`${what}: not within ${timeout / 1000} s`);
    await new Promise((r) => setTimeout(r, interval));
  }
}

/** `until`, returning how many ms the state took to hold (fault tests print it). */
export async function untilTimed(
  what: string,
  check: () => Promise<unknown> | unknown,
  timeout: number,
  interval = 250,
) {
  const started = Date.now();
  await until(what, check, timeout, interval);
  return Date.now() - started;
}

/**
 * For what must NOT happen over a span of time longer than some timeout of the product's (a job not taken over while
 * its heartbeat beats): looks at `check` every `interval` ms for `ms` ms and throws at the first look where it does
 * not hold. Where a barrier proves the same (a job completed, a lock waited on), use the barrier instead.
 */
export async function holdsFor(what: string, ms: number, check: () => Promise<boolean> | boolean, interval = 250) {
  const until = Date.now() + ms;
  do {
    if (!(await check())) throw new Error(`${what}: stopped holding`);
    await new Promise((r) => setTimeout(r, interval));
  } while (Date.now() < until);
  if (!(await check())) throw new Error(`${what}: stopped holding`);
}

/**
 * A gate the test opens: something held (a route's answer, a slow read) waits on `opened` until the test has seen
 * what it wanted to see meanwhile, instead of for a guessed time.
 */
export function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}

/** A pause of a random length up to `ms`: for fault tests whose point is a kill at no particular moment. */
export const atRandomMoment = (ms: number) => new Promise((r) => setTimeout(r, Math.floor(Math.random() * ms)));

/**
 * Until the job queue has nothing waiting or running: every mail a call queued (in its own transaction) has been
 * handed to SMTP or written to the outbox, so "no more mail" can be read at once instead of after a guessed time.
 */
export async function queueDrained(app: { services: { jobs: { list(): Promise<{ pending: unknown[] }> } } }) {
  await until("the job queue drained", async () => (await app.services.jobs.list()).pending.length === 0);
}

/** Until the clock is in a later second than `from` (times in JWTs and links are in whole seconds). */
export async function untilNextSecond(from = Date.now()) {
  await until("the next second", () => Math.floor(Date.now() / 1000) > Math.floor(from / 1000), 2_000, 5);
}
