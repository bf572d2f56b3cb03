// The simulator's HTTP server: nine venue upstreams under `/venue_N/...` on one Fastify instance,
// fault injection per venue, the admin routes, and the live-routes plugins (spot, wallet) when
// present. In: {seed, scale, port, clock, scenario}. Out: the base URL, the world handle, the
// fault controller and the clock. Cheap enough for the embedded default (one process).
import Fastify, { type FastifyInstance, type FastifyReply } from 'fastify';
import type { Socket } from 'node:net';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';
import {
  type Fault,
  type FaultController,
  type SimClock,
  VENUES,
  type VenueId,
  createClock,
  createFaults,
  eastern,
} from './core.ts';
import { procSpace } from './procedural.ts';
import { type Scenario, loadScenario } from './scenario.ts';
import { type SimCtx, type VenueModule, storeAccessor } from './store.ts';
import { type SportsWorld, type WorldPreset, buildWorld } from './world.ts';
import { VENUE_MODULES } from './venues/index.ts';
import { sportsDataRoutes } from './sportsdata.ts';
import { simClockStart } from '../../../lib/config.ts';

export interface SimulatorOptions {
  seed?: number;
  scale?: number;
  /** 0 picks a free port. */
  port?: number;
  host?: string;
  clock?: SimClock;
  /**
   * Without a clock: where the clock starts (epoch ms; a Config's SIM_CLOCK_START), else
   * SIM_CLOCK_START from the environment, else now. A scenario's clock_start wins over both.
   */
  clockStart?: number;
  /** A loaded scenario, or a directory path, or a preset name (`default`, `hard`, `wide`, `none`). */
  scenario?: Scenario | string;
}

export interface Simulator {
  baseUrl: string;
  url(venue: VenueId | 'spot' | 'sportsdata'): string;
  app: FastifyInstance;
  world: SportsWorld;
  ctx: SimCtx;
  faults: FaultController;
  clock: SimClock;
  close(): Promise<void>;
}

const HERE = dirname(fileURLToPath(import.meta.url));
const REPO = join(HERE, '..', '..', '..');

function resolveScenario(s: SimulatorOptions['scenario']): { scenario?: Scenario; preset: WorldPreset } {
  if (!s) return { preset: 'default' };
  if (typeof s !== 'string') return { scenario: s, preset: s.manifest.preset ?? 'none' };
  // A scenario directory (a path, or a name under infra/scenarios/) wins over a bare preset name,
  // so `hard` brings its manifest's seed and clock start.
  const dir = existsSync(join(s, 'scenario.json')) ? s : join(REPO, 'infra', 'scenarios', s);
  if (!existsSync(join(dir, 'scenario.json')) && (s === 'default' || s === 'hard' || s === 'wide' || s === 'none')) return { preset: s };
  const scenario = loadScenario(dir);
  return { scenario, preset: scenario.manifest.preset ?? 'none' };
}

/** Build the app without listening (tests use `app.inject`). */
export async function buildSimulatorApp(opts: SimulatorOptions = {}): Promise<Omit<Simulator, 'baseUrl' | 'url' | 'close'>> {
  const { scenario, preset } = resolveScenario(opts.scenario);
  // A scenario directory that names its seed is a fixed world (its ground truth holds only for that
  // seed), so the manifest's seed wins over the configured one.
  const seed = scenario?.manifest.seed ?? opts.seed ?? 42;
  const scale = opts.scale ?? scenario?.manifest.scale ?? 1;
  // Without a clock: the scenario's start, else the one asked for or SIM_CLOCK_START (a test run or
  // demo pinned to an instant), else now.
  const clock =
    opts.clock ??
    createClock(scenario?.manifest.clock_start ? Date.parse(scenario.manifest.clock_start) : (opts.clockStart ?? simClockStart() ?? Date.now()));
  const t0 = clock.now();
  const anchorDay = eastern(t0).date;
  const world = buildWorld({ seed, anchorDay, preset });
  // Procedural windows start moving at the anchor day's noon: a pure function of (seed, scale, day).
  const epoch = Date.parse(anchorDay + 'T17:00:00Z');
  const proc = Object.fromEntries(VENUES.map((v) => [v, procSpace(seed, v, scale, epoch)])) as SimCtx['proc'];
  const mods = VENUE_MODULES as Record<VenueId, VenueModule>;
  const ctx: SimCtx = { seed, scale, clock, world, proc, scenario, store: () => undefined as never };
  ctx.store = storeAccessor(mods, () => ctx);
  const faults = createFaults();

  const app = Fastify({ logger: false, forceCloseConnections: true, routerOptions: { maxParamLength: 1000 } });
  app.addHook('onRequest', async (req, reply) => {
    const m = /^\/(venue_[1-9])(\/|$)/.exec(req.url);
    if (!m) return;
    const f = faults.get(m[1] as VenueId);
    if (!f || (f.paths && !req.url.includes(f.paths))) return;
    return applyFault(f, req.raw.socket, reply, m[1]);
  });
  registerAdmin(app, ctx, faults);
  for (const v of VENUES) mods[v]?.routes(app, ctx);
  sportsDataRoutes(app, ctx);
  await mountPlugins(app, { seed, clock, world });
  return { app, world, ctx, faults, clock };
}

async function applyFault(f: Fault, socket: Socket, reply: FastifyReply, venue: string): Promise<unknown> {
  switch (f.kind) {
    case 'down':
      return reply.code(503).type('text/plain').send('Service Unavailable');
    case 'refuse':
      socket.destroy();
      return reply.hijack();
    case 'slow':
      await new Promise((r) => setTimeout(r, f.delay_ms ?? 12_000));
      return undefined; // then answer normally, too late for a 9 s deadline
    case 'rate_limit':
      if (f.retry_after_s !== undefined) reply.header('Retry-After', String(f.retry_after_s));
      return reply.code(429).send({ error: 'rate limited', venue });
    case 'malformed':
      return reply.code(200).type('application/json').send('{"markets":[{"ticker":"KX');
    case 'reject':
      return reply.code(400).send({ error: { code: 'bad_request', message: `${venue} rejected the request` } });
  }
}

function registerAdmin(app: FastifyInstance, ctx: SimCtx, faults: FaultController): void {
  app.get('/__admin/faults', async () => faults.list());
  app.post('/__admin/faults', async (req, reply) => {
    const b = (req.body ?? {}) as Omit<Fault, 'kind'> & { venue?: string; kind: Fault['kind'] | 'none' };
    if (!b.venue || !VENUES.includes(b.venue as VenueId)) return reply.code(400).send({ error: `unknown venue ${JSON.stringify(b.venue)}` });
    try {
      faults.set(b.venue as VenueId, b.kind === 'none' ? null : { kind: b.kind, delay_ms: b.delay_ms, retry_after_s: b.retry_after_s, paths: b.paths });
    } catch (e) {
      return reply.code(400).send({ error: (e as Error).message });
    }
    return faults.list();
  });
  app.delete('/__admin/faults', async () => {
    faults.clear();
    return {};
  });
  app.get('/__admin/clock', async () => ({ now: new Date(ctx.clock.now()).toISOString() }));
  app.post('/__admin/clock', async (req, reply) => {
    const b = (req.body ?? {}) as { set?: string; advance_ms?: number };
    if (b.set !== undefined) {
      const ms = Date.parse(b.set);
      if (!Number.isFinite(ms)) return reply.code(400).send({ error: `invalid time ${JSON.stringify(b.set)}` });
      ctx.clock.set(ms);
    } else if (typeof b.advance_ms === 'number') ctx.clock.advance(b.advance_ms);
    else return reply.code(400).send({ error: 'send {"set": ISO} or {"advance_ms": n}' });
    return { now: new Date(ctx.clock.now()).toISOString() };
  });
}

/**
 * The live routes' plugins (spot prices, the wallet venue). Imported by name, not found on disk, so a
 * bundle of the simulator's worker (bin/build-workers.ts) carries them: a worker started from compiled
 * JavaScript cannot import a .ts file at run time.
 */
const PLUGINS = [
  ['/spot', () => import('./spot.ts')],
  ['/venue_2', () => import('./wallet.ts')],
] as const;

async function mountPlugins(app: FastifyInstance, opts: { seed: number; clock: SimClock; world: SportsWorld }): Promise<void> {
  for (const [prefix, load] of PLUGINS) {
    const mod = (await load()) as { default?: unknown };
    if (typeof mod.default !== 'function') continue;
    await app.register(mod.default as Parameters<FastifyInstance['register']>[0], { prefix, ...opts } as never);
  }
}

export async function startSimulator(opts: SimulatorOptions = {}): Promise<Simulator> {
  const built = await buildSimulatorApp(opts);
  const address = await built.app.listen({ port: opts.port ?? 0, host: opts.host ?? '127.0.0.1' });
  const baseUrl = address.replace('[::1]', '127.0.0.1');
  return {
    ...built,
    baseUrl,
    url: (v) => `${baseUrl}/${v}`,
    close: () => built.app.close(),
  };
}
