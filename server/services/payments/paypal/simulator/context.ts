import { and, eq } from "drizzle-orm";
import { simulatorRestObjects } from "#server/db/schema.ts";
import { notFound } from "./errors";
import {
  SIMULATOR_REST_PREFIX,
  type Answer,
  type Json,
  type Obj,
  type Q,
  type SimState,
  type SimulatorDeps,
} from "./model";

/**
 * The simulator's context, built once from its dependencies: the clock as PayPal writes it, its addresses, and what
 * lives in this process (faults and the request log, which tests and the simulator's page set for the next calls;
 * whether webhooks are held; the signing key once read; the queue of deliveries).
 */
export interface Sim {
  deps: SimulatorDeps;
  iso: () => string;
  base: () => string;
  publicOrigin: string;
  publicBase: string;
  faults: { path: string; status?: number; delayMs?: number; times: number }[];
  log: { method: string; path: string; requestId: string | null; at: Date }[];
  state: {
    holding: boolean;
    key: { privateKey: string; publicKey: string } | null;
    deliveries: Promise<void>;
  };
}

export function simContext(deps: SimulatorDeps): Sim {
  return {
    deps,
    iso: () =>
      deps
        .now()
        .toISOString()
        .replace(/\.\d{3}Z$/, "Z"),
    base: () => deps.selfUrl() + SIMULATOR_REST_PREFIX,
    publicOrigin: new URL(deps.publicUrl).origin,
    publicBase: deps.publicUrl.replace(/\/+$/, ""),
    faults: [],
    log: [],
    state: { holding: false, key: null, deliveries: Promise.resolve() },
  };
}

// ── Objects ──────────────────────────────────────────────────────────────────────────────────────────────────────
export async function get(q: Q, kind: string, id: string, lock = false) {
  const query = q
    .select()
    .from(simulatorRestObjects)
    .where(and(eq(simulatorRestObjects.id, id), eq(simulatorRestObjects.kind, kind)));
  const [row] = await (lock ? query.for("update") : query);
  return row ? ({ ...row.data, id: row.id, _sim: (row.data._sim ?? {}) as SimState } as Obj) : null;
}
export async function put(q: Q, kind: string, id: string, data: Json, parentId: string | null = null) {
  await q.insert(simulatorRestObjects).values({ id, kind, parentId, data });
}
export async function save(sim: Sim, q: Q, id: string, data: Json) {
  await q.update(simulatorRestObjects).set({ data, updatedAt: sim.deps.now() }).where(eq(simulatorRestObjects.id, id));
}
/** PayPal's shape of an object: what the simulator keeps for itself left out. */
export const shown = ({ _sim: _, ...rest }: Json) => rest;

/** A stored object as PayPal shows it, or PayPal's 404 naming `field`. */
export async function getShown(sim: Sim, kind: string, field: string, id: string): Promise<Answer> {
  const found = await get(sim.deps.db, kind, id);
  return found ? { status: 200, body: shown(found) } : notFound(field);
}

/** Where PayPal sends the buyer back: `back` with `query` added to its own. */
export const backTo = (back: string, query: string) => `${back}${back.includes("?") ? "&" : "?"}${query}`;
