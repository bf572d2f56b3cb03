// Per-venue record store and the shared venue-module contract.
// In: native records rendered from the sports world plus records loaded from scenario files, and
// the scenario clock. Out: lookups by every id a venue publishes (market ids, slugs, tokens,
// condition ids) and ordered lists for the listings. The store is rebuilt lazily whenever the clock
// passes a transition (a game starting or settling, a postponement, a scenario patch).
import type { FastifyInstance } from 'fastify';
import { type SimClock, type VenueId, h32, round2 } from './core.ts';
import type { ProcSpace } from './procedural.ts';
import type { Scenario } from './scenario.ts';
import { type GameState, type SimGame, type SimLine, type SportsWorld, gameState } from './world.ts';

/** Hidden link from a rendered record to the world (never serialized: kept in a WeakMap). */
export interface Meta {
  g?: SimGame;
  l?: SimLine;
  st?: GameState;
  /** Any venue-specific extra (e.g. the line list of a venue_7 market). */
  extra?: unknown;
}

export interface Rendered {
  type: string;
  rec: Record<string, unknown>;
  meta?: Meta;
}

export class VenueStore {
  private units = new Map<string, Map<string, Record<string, unknown>>>();
  private alias = new Map<string, { type: string; id: string }>();
  readonly meta = new WeakMap<object, Meta>();
  put(type: string, keys: string[], rec: Record<string, unknown>, meta?: Meta): void {
    let m = this.units.get(type);
    if (!m) this.units.set(type, (m = new Map()));
    const id = keys[0];
    m.set(id, rec);
    for (const k of keys) this.alias.set(`${type}|${k.toLowerCase()}`, { type, id });
    if (meta) this.meta.set(rec, meta);
  }
  get(type: string, key: string): Record<string, unknown> | undefined {
    const a = this.alias.get(`${type}|${key.toLowerCase()}`);
    return a ? this.units.get(type)?.get(a.id) : undefined;
  }
  list(type: string): Record<string, unknown>[] {
    return [...(this.units.get(type)?.values() ?? [])];
  }
  metaOf(rec: object): Meta | undefined {
    return this.meta.get(rec);
  }
}

export interface SimCtx {
  seed: number;
  scale: number;
  clock: SimClock;
  world: SportsWorld;
  proc: Record<VenueId, ProcSpace>;
  scenario?: Scenario;
  /** The venue's store as of the clock's now. */
  store(v: VenueId): VenueStore;
}

export interface VenueModule {
  venue: VenueId;
  /** Record types (keys of this venue's scenario file). */
  types: string[];
  /** Ids a record is found by; the first is its primary id. */
  keys(type: string, rec: Record<string, unknown>): string[];
  /** Native records of one game in its state at time t. */
  renderGame(ctx: SimCtx, g: SimGame, st: GameState, t: number): Rendered[];
  routes(app: FastifyInstance, ctx: SimCtx): void;
}

/** Build the lazily-refreshed store accessor for all venues. */
export function storeAccessor(
  mods: Record<VenueId, VenueModule>,
  getCtx: () => SimCtx,
): (v: VenueId) => VenueStore {
  const cache = new Map<VenueId, { version: string; store: VenueStore }>();
  return (v) => {
    const ctx = getCtx();
    const t = ctx.clock.now();
    // Records also re-render every 5 minutes so quotes on the records move ("books move").
    const version = `${countLE(ctx.world.transitions, t)}:${countLE(ctx.scenario?.patchTimes ?? [], t)}:${Math.floor(t / 300_000)}`;
    const hit = cache.get(v);
    if (hit && hit.version === version) return hit.store;
    const store = new VenueStore();
    const mod = mods[v];
    if (!mod) return store;
    for (const g of ctx.world.games) {
      if (!g.venues.includes(v)) continue;
      for (const r of mod.renderGame(ctx, g, gameState(g, t), t)) store.put(r.type, mod.keys(r.type, r.rec), r.rec, r.meta);
    }
    ctx.scenario?.apply(v, t, (type, rec) => store.put(type, mod.keys(type, rec), rec), mod.keys);
    cache.set(v, { version, store });
    return store;
  };
}

function countLE(sorted: number[], t: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (sorted[mid] <= t) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

// ---- quotes ----

export interface Quote {
  bid: number | null;
  ask: number | null;
  bidSize: number | null;
  askSize: number | null;
  last: number;
}
/**
 * Top of book around a fair probability. `key` decides, per market, a wide book (beyond venue_3's
 * spread threshold), an empty side, or an empty book, so every pricing case of the spec occurs.
 */
export function quote(key: string, p: number, opts: { wideShare?: number; emptyShare?: number; oneSidedShare?: number } = {}): Quote {
  const h = h32('q', key);
  const u = (h % 1000) / 1000;
  const wide = u < (opts.wideShare ?? 0);
  const empty = u >= 1 - (opts.emptyShare ?? 0);
  const half = wide ? 0.08 + (h % 7) / 100 : 0.005 + ((h >>> 8) % 3) / 200;
  const bid = round2(Math.max(0.01, p - half));
  const ask = round2(Math.min(0.99, p + half));
  const size = 50 + ((h >>> 12) % 2000);
  if (empty) return { bid: null, ask: null, bidSize: null, askSize: null, last: round2(p) };
  // "an empty or one-sided book yields null quotes on the empty side": a few books have no bids.
  if (u >= 0.5 && u < 0.5 + (opts.oneSidedShare ?? 0.03)) return { bid: null, ask, bidSize: null, askSize: size, last: round2(p) };
  return { bid, ask, bidSize: size, askSize: size + ((h >>> 4) % 300), last: round2(p) };
}

export function notFound(reply: { code(n: number): { send(b: unknown): unknown } }, body: unknown): unknown {
  return reply.code(404).send(body);
}
