/* eslint-disable @typescript-eslint/no-explicit-any -- venue and API JSON is read loosely in tests and benches */
// Test kit for the live routes' API tests: one simulator per suite and, per test, an app built with
// the shell's build() whose live deps point at that simulator. In: a seed, env overrides (e.g. a
// short UPSTREAM_DEADLINE_MS). Out: `get(url)` through app.inject with a key holding every
// permission, and `sim(path)` for reading the venues directly the way a client would (to find ids).
import { request } from 'undici';
import { build } from '../../test/helper.ts';
import { PERMISSIONS } from '../routes/table.ts';
import { createLiveDeps } from './io.ts';
import { VenueHttp } from '../../pipelines/venues/client/http.ts';
import { afterAll, beforeAll } from 'vitest';
import { startSimulator, type Simulator } from '../../pipelines/venues/simulator/server.ts';

export async function liveApp(sim: Simulator, env: Record<string, string> = {}) {
  const live = createLiveDeps(sim.baseUrl);
  const t = await build({ deps: { live }, env });
  const key = await t.createKey({ plan: 'business', permissions: [...PERMISSIONS] });
  const get = async (url: string) => {
    const res = await t.app.inject({ method: 'GET', url, headers: t.auth(key) });
    return { status: res.statusCode, body: res.json() as Record<string, any>, headers: res.headers };
  };
  return { t, get, live };
}

export async function simJson(sim: Simulator, path: string): Promise<any> {
  const res = await request(sim.baseUrl + path);
  const text = await res.body.text();
  if (res.statusCode !== 200) throw new Error(`simulator ${path}: ${res.statusCode} ${text.slice(0, 200)}`);
  return JSON.parse(text);
}

/**
 * The first venue_1 market of the simulator's open listing that `match` accepts, paging by cursor.
 * The listing's first page changes with the simulated clock: at some hours it held no parlay and no
 * non-sports group opener, and tests that looked at one page only failed then.
 */
export async function findSimMarket(sim: Simulator, match: (m: any) => boolean): Promise<any> {
  let cursor = '';
  do {
    const page = await simJson(sim, `/venue_1/markets?limit=1000${cursor ? `&cursor=${cursor}` : ''}`);
    const m = (page.markets as any[]).find(match);
    if (m) return m;
    cursor = page.cursor;
  } while (cursor);
  return undefined;
}

/**
 * Problems of `value` against the subset of JSON Schema that api/live/schemas.ts uses (type,
 * required, properties, items, enum, minimum, maximum), so tests keep those schemas honest.
 */
export function schemaProblems(schema: any, value: unknown, at = '$'): string[] {
  const types: string[] = schema.type === undefined ? [] : Array.isArray(schema.type) ? schema.type : [schema.type];
  const kind = value === null ? 'null' : Array.isArray(value) ? 'array' : Number.isInteger(value) ? 'integer' : typeof value;
  if (types.length && !types.some((t) => t === kind || (t === 'number' && kind === 'integer'))) return [`${at}: ${kind} is not ${types.join('|')}`];
  const out: string[] = [];
  if (schema.enum && !schema.enum.includes(value)) out.push(`${at}: ${JSON.stringify(value)} not in enum`);
  if (typeof value === 'number') {
    if (schema.minimum !== undefined && value < schema.minimum) out.push(`${at}: below minimum`);
    if (schema.maximum !== undefined && value > schema.maximum) out.push(`${at}: above maximum`);
  }
  if (kind === 'object' && value !== null) {
    const rec = value as Record<string, unknown>;
    for (const k of schema.required ?? []) if (!(k in rec)) out.push(`${at}.${k}: missing`);
    for (const [k, s] of Object.entries(schema.properties ?? {})) if (k in rec) out.push(...schemaProblems(s, rec[k], `${at}.${k}`));
  }
  if (kind === 'array' && schema.items) (value as unknown[]).forEach((v, i) => out.push(...schemaProblems(schema.items, v, `${at}[${i}]`)));
  return out;
}

function deepFreeze(v: unknown): unknown {
  if (v !== null && typeof v === 'object' && !Object.isFrozen(v)) {
    Object.freeze(v);
    for (const k of Object.keys(v)) deepFreeze((v as Record<string, unknown>)[k]);
  }
  return v;
}

/**
 * Every venue answer the live routes read comes back deeply frozen until the returned function is
 * called: the requests that share a venue read share its parsed body (VenueHttp.getJson), so no
 * reader may write into it, and a write into a frozen object throws (modules are strict code), which
 * the route answers as a 5xx. For a suite's beforeAll/afterAll.
 */
/**
 * One simulator for the calling spec file, started before its tests with every venue answer frozen
 * (requests that share a venue read share its parsed answer, so a write into one fails the test), and
 * closed after them. Call at the file's top level; `use` receives the simulator once it is up.
 */
export function simulatorForSuite(seed: number, use: (sim: Simulator) => void): void {
  let sim: Simulator | undefined;
  let thaw: (() => void) | undefined;
  beforeAll(async () => {
    sim = await startSimulator({ seed });
    use(sim);
    thaw = freezeVenueAnswers();
  });
  afterAll(async () => {
    thaw?.();
    await sim?.close();
  });
}

export function freezeVenueAnswers(): () => void {
  const own = VenueHttp.prototype.getJson;
  VenueHttp.prototype.getJson = async function (this: VenueHttp, ...args: Parameters<VenueHttp['getJson']>) {
    return deepFreeze(await own.apply(this, args));
  };
  return () => {
    VenueHttp.prototype.getJson = own;
  };
}
