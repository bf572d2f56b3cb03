// Chaos suite of the scale-out stack (`make test-stack`). Starts the stack exactly as the README
// documents it, with the same commands (`make up`, `bash infra/scripts/stack.sh start`,
// `npx tsx bin/keys.ts create`), on free ports and in a temp directory of its own, drives API load
// against both replicas, and in turn:
//   pollers     SIGKILL and restart (stack.sh kill / start)
//   api         SIGKILL one API replica and restart it; the other keeps serving
//   redis       restart Redis (infra/scripts/stop-redis.sh, start-redis.sh)
//   kafka       restart Kafka (infra/scripts/stop-kafka.sh, start-kafka.sh)
//   processors  SIGKILL and restart the processors (CHAOS_PROCESSORS=0 skips it), then check that the
//               canonical read model (market documents in Redis) is not emptied
// After each step: every replica answers GET /v1/plans, /v1/matching-markets/sports,
// /v1/categories and /v1/markets with 2xx within RECOVERY_BOUND_S (90); no key was lost (never a 401, and
// bin/keys.ts lists them at the end); no 5xx other than the documented degradation of that step
// (Redis down: 502 upstream_unavailable for key verification, 503 service_unavailable for a
// snapshot read); every stack process is still running. Throughout: a free-plan key (10 per
// rolling 60 s), sent to both replicas in turn, is never admitted more than 10 times within 60 s.
// Prints the figures (requests served, errors by code, recovery seconds) and a closing line
// "N passed, N failed"; exits 1 when a check failed (the temp directory, with every log, is kept).
// Env: CHAOS_PROCESSORS=0 leaves the processors step out; RECOVERY_BOUND_S; KEEP=1 keeps the directory;
// CHAOS_PORT_BASE=<p> takes the ports p, p+1, ... (each must be free) instead of random free ones,
// for a machine where others pick random ports too.
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Redis } from 'ioredis';
import kafkajs from 'kafkajs';
import { ConfluentRegistry } from '../../pipelines/registry/index.ts';
import { avroSerde } from '../../pipelines/serde/index.ts';
import { TOPICS } from '../../pipelines/topics.ts';
import { parseMetrics } from '../../pipelines/runtime/metrics.ts';
import { portIsFree, restartablePort } from '../services/index.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const T0 = Date.now();
const RECOVERY_BOUND_S = Number(process.env.RECOVERY_BOUND_S ?? 90);
const WITH_PROCESSORS = process.env.CHAOS_PROCESSORS !== '0';
const ROUTES = ['/v1/plans', '/v1/matching-markets/sports?limit=5', '/v1/categories', '/v1/markets?limit=5'];
const FREE_LIMIT = 10;
const WINDOW_MS = 60_000;

const secs = (ms: number) => (ms / 1000).toFixed(1);
const say = (msg: string) => console.log(`[chaos +${secs(Date.now() - T0)}s] ${msg}`);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

// ---- the environment: free ports, a temp directory, what the README says to export ----
const dir = mkdtempSync(join(tmpdir(), 'pm-chaos-'));
const ports: number[] = [];
const PORT_BASE = process.env.CHAOS_PORT_BASE ? Number(process.env.CHAOS_PORT_BASE) : undefined;
if (PORT_BASE !== undefined && !(Number.isInteger(PORT_BASE) && PORT_BASE > 1024 && PORT_BASE < 65_000))
  throw new Error(`CHAOS_PORT_BASE must be a port number between 1025 and 64999, got "${process.env.CHAOS_PORT_BASE}"`);
/** Below the ephemeral range: Redis and Kafka restart on theirs (test/services restartablePort). */
async function port(): Promise<number> {
  let p: number;
  if (PORT_BASE === undefined) p = await restartablePort(ports);
  else {
    p = PORT_BASE + ports.length;
    if (!(await portIsFree(p))) throw new Error(`CHAOS_PORT_BASE: port ${p} is in use`);
  }
  ports.push(p);
  return p;
}
const P = {
  redis: await port(),
  kafka: await port(),
  kafkaController: await port(),
  registry: await port(),
  sim: await port(),
  api: [await port(), await port()],
  processors: await port(),
  pollers: await port(),
};
const kafkaHome = join(dir, 'kafka');
mkdirSync(kafkaHome, { recursive: true });
// As .ci/run does: the broker's jars from the repository's install, data of this run's own.
symlinkSync(join(ROOT, '.infra/kafka/libs'), join(kafkaHome, 'libs'));
const env: NodeJS.ProcessEnv = { ...process.env };
for (const k of ['ROLES', 'PORT', 'DATA_DIR', 'METRICS_PORT', 'TOPIC_PREFIX', 'VENUE_BASE_URL', 'CLICKHOUSE_URL', 'SIM_PORT']) delete env[k];
Object.assign(env, {
  USE_DOCKER: '0',
  REDIS_PORT: String(P.redis),
  REDIS_HOME: join(dir, 'redis'),
  KAFKA_PORT: String(P.kafka),
  KAFKA_CONTROLLER_PORT: String(P.kafkaController),
  KAFKA_HOME: kafkaHome,
  REGISTRY_PORT: String(P.registry),
  REGISTRY_HOME: join(dir, 'registry'),
  // What `make up` prints to export:
  KAFKA_BROKERS: `127.0.0.1:${P.kafka}`,
  REDIS_URL: `redis://127.0.0.1:${P.redis}`,
  SCHEMA_REGISTRY_URL: `http://127.0.0.1:${P.registry}/apis/ccompat/v7`,
  KEY_PEPPER: randomBytes(32).toString('base64'),
  CATALOG_CURSOR_SECRET: randomBytes(32).toString('base64'),
  // stack.sh's own variables: every port and directory of this run.
  SIM_PORT: String(P.sim),
  API_PORTS: P.api.join(' '),
  PROCESSORS_METRICS_PORT: String(P.processors),
  POLLERS_METRICS_PORT: String(P.pollers),
  STACK_DIR: join(dir, 'stack'),
  // Starting is setup, not a measured recovery: on a 2-core machine shared with other work a first
  // start took over stack.sh's default 120 s (load average 30).
  READY_SECONDS: process.env.READY_SECONDS ?? '300',
  LOG_LEVEL: 'warn',
});
const API = P.api.map((p) => `http://127.0.0.1:${p}`);

function sh(cmd: string, args: string[]): Promise<string> {
  return new Promise((ok, fail) =>
    execFile(cmd, args, { cwd: ROOT, env, maxBuffer: 16 << 20 }, (err, stdout, stderr) => {
      if (err) fail(new Error(`${cmd} ${args.join(' ')} failed: ${err.message}\n${String(stdout).slice(-2000)}${String(stderr).slice(-2000)}`));
      else ok(String(stdout));
    }),
  );
}
const stack = (...args: string[]) => sh('bash', ['infra/scripts/stack.sh', ...args]);
const script = (name: string) => sh('bash', [`infra/scripts/${name}`]);

// ---- checks and figures ----
const checks: { name: string; ok: boolean; detail: string }[] = [];
function check(name: string, ok: boolean, detail: string): void {
  checks.push({ name, ok, detail });
  say(`${ok ? 'PASS' : 'FAIL'} ${name}: ${detail}`);
}

type Outcome = number | 'connection' | 'timeout';
interface Sample {
  sent: number;
  done: number;
  replica: number;
  route: string;
  key: 'load' | 'free' | 'probe';
  outcome: Outcome;
  code?: string;
  phase: string;
}
const samples: Sample[] = [];
/** The phase a request is sent in; what each phase may answer besides 2xx and 4xx (allowedByPhase). */
let phase = 'start';

async function request(replica: number, route: string, key: string, kind: Sample['key']): Promise<Sample> {
  const s: Sample = { sent: Date.now(), done: 0, replica, route, key: kind, outcome: 'connection', phase };
  try {
    const res = await fetch(API[replica] + route, { headers: { authorization: `Bearer ${key}` }, signal: AbortSignal.timeout(10_000) });
    s.outcome = res.status;
    const body = (await res.json().catch(() => ({}))) as { code?: string };
    if (res.status >= 400) s.code = body.code;
  } catch (e) {
    s.outcome = (e as Error).name === 'TimeoutError' ? 'timeout' : 'connection';
  }
  s.done = Date.now();
  samples.push(s);
  return s;
}

/** Whether a sample is a failure: a 401 (a key lost), or a 5xx / network error its phase does not allow. */
function unexpected(s: Sample): boolean {
  if (s.outcome === 401) return true;
  if (typeof s.outcome === 'number') return s.outcome >= 500 && !allowedIn(s.phase, `${s.outcome} ${s.code}`);
  return !allowedIn(s.phase, `${s.outcome}@${s.replica}`);
}
const allowedByPhase = new Map<string, Set<string>>();
const allowedIn = (p: string, what: string) => allowedByPhase.get(p)?.has(what) ?? false;
function enter(name: string, allows: string[] = []): void {
  phase = name;
  allowedByPhase.set(name, new Set(allows));
  say(`phase ${name}${allows.length ? ` (documented degradation: ${allows.join(', ')})` : ''}`);
}

// ---- load ----
let driving = false;
const loops: Promise<void>[] = [];
function drive(keys: { load: string; free: string }): void {
  driving = true;
  // Two load workers, each alternating replicas and routes (about 10 requests/s in all: under the
  // business plan's 1,000 per minute).
  for (let w = 0; w < 2; w++)
    loops.push(
      (async () => {
        for (let i = w; driving; i++) {
          await request(i % 2, ROUTES[Math.floor(i / 2) % ROUTES.length]!, keys.load, 'load');
          await sleep(200);
        }
      })(),
    );
  // The free key: one request every 2 s, alternating replicas: 30 per minute against its 10.
  loops.push(
    (async () => {
      for (let i = 0; driving; i++) {
        await request(i % 2, '/v1/categories', keys.free, 'free');
        await sleep(2000);
      }
    })(),
  );
}

/** Seconds from `since` until every replica answers every route 2xx; undefined past the bound. */
async function recovered(since: number, probeKey: string): Promise<number | undefined> {
  while (Date.now() - since < RECOVERY_BOUND_S * 1000) {
    const all = await Promise.all(P.api.flatMap((_, r) => ROUTES.map((route) => request(r, route, probeKey, 'probe'))));
    if (all.every((s) => typeof s.outcome === 'number' && s.outcome >= 200 && s.outcome < 300)) return (Date.now() - since) / 1000;
    await sleep(1000);
  }
  return undefined;
}

/** The stack's processes that are not running, from stack.sh's pid files (its `status` reads the same). */
function processesDown(): string[] {
  return ['simulator', 'pollers', 'processors', ...P.api.map((p) => `api-${p}`)].filter((name) => {
    try {
      process.kill(Number(readFileSync(join(env.STACK_DIR!, `${name}.pid`), 'utf8').trim()), 0);
      return false;
    } catch {
      return true;
    }
  });
}

const recovery: Record<string, number | undefined> = {};
const contentFigures: string[] = [];
async function step(name: string, allows: string[], act: () => Promise<void>, probeKey: string): Promise<void> {
  enter(name, allows);
  const t = Date.now();
  await act();
  say(`${name}: fault and restart done in ${secs(Date.now() - t)} s`);
  const s = await recovered(t, probeKey);
  recovery[name] = s;
  check(`${name}: every replica answers the four routes 2xx`, s !== undefined, s === undefined ? `not within ${RECOVERY_BOUND_S} s` : `after ${s.toFixed(1)} s`);
  const down = processesDown();
  check(`${name}: every stack process is running`, down.length === 0, down.length ? `down: ${down.join(', ')}` : 'all up');
  const bad = samples.filter((x) => x.phase === name && unexpected(x));
  check(`${name}: no 401 and no 5xx beyond the documented degradation`, bad.length === 0, bad.length ? summarize(bad) : `${samples.filter((x) => x.phase === name).length} requests`);
  enter(`after-${name}`);
  await sleep(5000);
}

function summarize(xs: Sample[]): string {
  const by = new Map<string, number>();
  for (const s of xs) {
    const k = typeof s.outcome === 'number' ? `${s.outcome}${s.code ? ` ${s.code}` : ''}` : `${s.outcome} (api ${P.api[s.replica]})`;
    by.set(k, (by.get(k) ?? 0) + 1);
  }
  return [...by.entries()].sort((a, b) => b[1] - a[1]).map(([k, n]) => `${k}: ${n}`).join(', ');
}

/**
 * The most free-key admissions that certainly fell within one 60 s window: admissions i..j with
 * the answer to j before 60 s after the sending of i (each was admitted between its send and its
 * answer, so client clocks can only under-count, never invent, an over-admission).
 */
function maxCertainInWindow(admitted: Sample[]): number {
  const xs = [...admitted].sort((a, b) => a.sent - b.sent);
  let best = 0;
  for (let i = 0; i < xs.length; i++) {
    let n = 0;
    for (let j = i; j < xs.length; j++) if (xs[j]!.done - xs[i]!.sent < WINDOW_MS) n++;
    best = Math.max(best, n);
  }
  return best;
}

const MARKET_DOC = 'pm:d:market:';

/** The canonical read model's market documents, by `<venue>:<market id>` (SCAN may name one twice). */
async function marketDocuments(): Promise<Set<string>> {
  const r = new Redis(env.REDIS_URL!, { maxRetriesPerRequest: 1 });
  r.on('error', () => {});
  try {
    const out = new Set<string>();
    let cursor = '0';
    do {
      const [next, keys] = await r.scan(cursor, 'MATCH', `${MARKET_DOC}*`, 'COUNT', 1000);
      cursor = next;
      for (const k of keys) out.add(k.slice(MARKET_DOC.length));
    } while (cursor !== '0');
    return out;
  } finally {
    r.disconnect();
  }
}

/**
 * What canonical.markets holds for some keys: each record (partition@offset, upsert or tombstone,
 * its log time relative to `t0`). Says whether a market document went because the canonicalize
 * stage wrote a tombstone (and when: before or after the fault) or the read model lost it alone.
 */
async function canonicalHistory(keys: string[], t0: number): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>(keys.map((k) => [k, []]));
  // Keys decoded as the pipeline encodes them: the stack's registry, the topic's key schema.
  const topic = TOPICS['canonical.markets'];
  const serde = avroSerde(new ConfluentRegistry(env.SCHEMA_REGISTRY_URL!));
  const kafka = new kafkajs.Kafka({ clientId: 'chaos-check', brokers: [env.KAFKA_BROKERS!], logLevel: kafkajs.logLevel.NOTHING });
  const admin = kafka.admin();
  const consumer = kafka.consumer({ groupId: `chaos-check-${randomBytes(4).toString('hex')}` });
  try {
    await admin.connect();
    const ends = await admin.fetchTopicOffsets(topic.name);
    const left = new Map(ends.filter((e) => BigInt(e.high) > BigInt(e.low)).map((e) => [e.partition, BigInt(e.high) - 1n]));
    if (left.size === 0) return out;
    await consumer.connect();
    await consumer.subscribe({ topic: topic.name, fromBeginning: true });
    let done: () => void = () => {};
    const finished = new Promise<void>((ok) => (done = ok));
    await consumer.run({
      eachBatch: async ({ batch }) => {
        // Values are left out (null): only whether each record is a tombstone is told, from its bytes.
        const decoded = await serde.decodeMany(
          topic,
          batch.messages.map((m) => ({ topic: topic.name, partition: batch.partition, offset: m.offset, key: m.key ?? null, value: null, timestamp: Number(m.timestamp), headers: {} })),
        );
        for (const [i, m] of batch.messages.entries()) {
          const k = decoded[i]!.key;
          const seen = k === null ? undefined : out.get(k);
          if (seen) seen.push(`${m.value ? 'upsert' : 'tombstone'} ${batch.partition}@${m.offset} at ${secs(Number(m.timestamp) - t0)} s`);
        }
        const last = left.get(batch.partition);
        if (last !== undefined && BigInt(batch.lastOffset()) >= last) left.delete(batch.partition);
        if (left.size === 0) done();
      },
    });
    await Promise.race([finished, sleep(60_000)]);
    return out;
  } finally {
    await consumer.disconnect().catch(() => {});
    await admin.disconnect().catch(() => {});
  }
}

// ---- served content: what /v1/markets and /v1/matching-markets/sports list, read whole ----

/** The sports stages whose output the served content is (their consumer lag, from the processors' metrics). */
const SPORTS_STAGES = ['canonicalize', 'matching', 'sink.sports-snapshot'];
// 120 s was not enough at load ~22 (a kill step then compared 6 venue markets); the wait ends as soon as it is caught up.
const CATCH_UP_S = 240;

/** The summed consumer lag of the sports stages (pm_stage_consumer_lag), or undefined when not readable. */
async function sportsLag(): Promise<number | undefined> {
  try {
    const res = await fetch(`http://127.0.0.1:${P.processors}/metrics`, { signal: AbortSignal.timeout(5000) });
    if (res.status !== 200) return undefined;
    const lags = parseMetrics(await res.text()).filter((s) => s.name === 'pm_stage_consumer_lag' && SPORTS_STAGES.includes(s.labels.stage ?? ''));
    return lags.length > 0 ? lags.reduce((sum, s) => sum + s.value, 0) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Waits (at most CATCH_UP_S) until the sports stages have read everything the pollers published,
 * so the reading before a fault is of the pipeline's whole output and not of a first crawl still
 * on its way (a loaded machine read 10 events and 33 venue markets 134 s into the run, where the
 * whole listing is 151 events and about 3,000). The pollers keep publishing: caught up is a lag
 * at most CAUGHT_UP_LAG once.
 */
const CAUGHT_UP_LAG = 50;
async function sportsCaughtUp(name: string): Promise<void> {
  const t = Date.now();
  let lag: number | undefined;
  while (Date.now() - t < CATCH_UP_S * 1000) {
    lag = await sportsLag();
    if (lag !== undefined && lag <= CAUGHT_UP_LAG) break;
    await sleep(1000);
  }
  say(`${name}: sports stages' lag ${lag ?? 'not read'} after ${secs(Date.now() - t)} s${lag !== undefined && lag <= CAUGHT_UP_LAG ? '' : ` (not caught up within ${CATCH_UP_S} s: the reading before compares what was served)`}`);
}

/** What the API serves: each sports event's venue markets, and the catalog's market ids. */
interface Served {
  /** event_id -> the provider:market_id of every source market of every submarket. */
  sports: Map<string, Set<string>>;
  catalog: Set<string>;
  /** The published snapshots the reading saw (SnapshotStore ids in Redis). */
  sportsId: string | null;
  catalogId: string | null;
}

async function currentIds(): Promise<{ sports: string | null; catalog: string | null }> {
  const r = new Redis(env.REDIS_URL!, { maxRetriesPerRequest: 1 });
  r.on('error', () => {});
  try {
    const [sports, catalog] = await Promise.all([r.get('pm:s:sports:cur'), r.get('pm:s:catalog:cur')]);
    return { sports, catalog };
  } finally {
    r.disconnect();
  }
}

/** Every page of a list route through replica 0, following next_cursor. */
async function readList<T>(route: string, key: string): Promise<T[]> {
  const out: T[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < 10_000; page++) {
    const url = `${API[0]}${route}${route.includes('?') ? '&' : '?'}limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
    const res = await fetch(url, { headers: { authorization: `Bearer ${key}` }, signal: AbortSignal.timeout(10_000) });
    if (res.status !== 200) throw new Error(`GET ${url} answered ${res.status}: ${(await res.text()).slice(0, 200)}`);
    const body = (await res.json()) as { data: T[]; pagination: { has_more: boolean; next_cursor?: string } };
    out.push(...body.data);
    if (!body.pagination.has_more) return out;
    cursor = body.pagination.next_cursor;
  }
  throw new Error(`${route}: more than 10,000 pages`);
}

interface SportsEvent {
  event_id: string;
  submarkets: { settlement_equivalence?: string; source_markets: { provider: string; market_id: string }[] }[];
}

/**
 * One whole reading of both lists. A reading spans many requests; the sports snapshot is
 * republished every few seconds, so a reading that saw two snapshots is taken again.
 */
/** Reads one list until a reading saw one snapshot from its start to its end. */
async function steady<T>(route: string, key: string, id: () => Promise<string | null>): Promise<{ rows: T[]; id: string | null }> {
  for (let attempt = 0; ; attempt++) {
    const before = await id();
    const rows = await readList<T>(route, key);
    const after = await id();
    if (before === after) return { rows, id: after };
    if (attempt >= 10) throw new Error(`${route}: the snapshot changed during each of ${attempt + 1} readings`);
  }
}

async function readServed(key: string): Promise<Served> {
  const events = await steady<SportsEvent>('/v1/matching-markets/sports?include_submarkets=true', key, async () => (await currentIds()).sports);
  const rows = await steady<{ id: string }>('/v1/markets', key, async () => (await currentIds()).catalog);
  const sports = new Map<string, Set<string>>();
  for (const e of events.rows) {
    const markets = sports.get(e.event_id) ?? new Set<string>();
    for (const sm of e.submarkets) for (const m of sm.source_markets) markets.add(`${m.provider}:${m.market_id}`);
    sports.set(e.event_id, markets);
  }
  return { sports, catalog: new Set(rows.rows.map((r) => r.id)), sportsId: events.id, catalogId: rows.id };
}

/** Whether the venue no longer lists a market open (market detail, live: 404 or a status not open). */
async function venueDropped(id: string, key: string): Promise<boolean> {
  const res = await fetch(`${API[0]}/v1/markets/${encodeURIComponent(id)}`, { headers: { authorization: `Bearer ${key}` }, signal: AbortSignal.timeout(15_000) });
  if (res.status === 404) return true;
  if (res.status !== 200) throw new Error(`GET /v1/markets/${id} answered ${res.status}`);
  return ((await res.json()) as { status: string }).status !== 'open';
}

/**
 * Each venue market every prop policy serves (player_prop_match=same_prop), with the settlement
 * verdict of its submarket. The readings above use the default policy, `strict`, which lists a
 * player-prop group only while every venue's settlement rules in it are equivalent: a venue that
 * lists the same prop with rules that differ takes the whole group out of it, and that is the
 * venues' doing, not a loss (the group is still served under same_prop, with its verdict).
 */
async function verdicts(key: string): Promise<Map<string, string>> {
  const events = await steady<SportsEvent>('/v1/matching-markets/sports?include_submarkets=true&player_prop_match=same_prop', key, async () => (await currentIds()).sports);
  const out = new Map<string, string>();
  for (const e of events.rows) for (const sm of e.submarkets) for (const m of sm.source_markets) out.set(`${m.provider}:${m.market_id}`, sm.settlement_equivalence ?? 'unknown');
  return out;
}

/**
 * What a reading after a fault lost against the one before it. A difference is the simulator's own
 * doing when the venue itself no longer lists the market open (asked live, through market detail);
 * anything else missing is a loss. At most CHECK_CAP differences are asked about: more than that
 * within one step is itself a failure (the restart bug this guards against dropped thousands).
 */
const CHECK_CAP = 300;
async function compareServed(before: Served, after: Served, key: string) {
  const missingMarkets = new Set<string>(); // venue markets of a sports event that no event serves now
  const servedAfter = new Set<string>();
  for (const ms of after.sports.values()) for (const m of ms) servedAfter.add(m);
  let sportsMarkets = 0;
  for (const ms of before.sports.values())
    for (const m of ms) {
      sportsMarkets++;
      if (!servedAfter.has(m)) missingMarkets.add(m);
    }
  const missingEvents = [...before.sports.keys()].filter((e) => !after.sports.has(e));
  const missingRows = [...before.catalog].filter((id) => !after.catalog.has(id));
  // The same catalog snapshot must list exactly the same rows; a newer one may differ by what the venues changed.
  const sameCatalog = before.catalogId !== null && before.catalogId === after.catalogId;
  // Venue markets strict no longer lists because their group's settlement rules now differ.
  let regrouped = 0;
  if (missingMarkets.size > 0 && missingMarkets.size <= CHECK_CAP) {
    const verdict = await verdicts(key);
    for (const id of [...missingMarkets]) {
      const v = verdict.get(id);
      if (v !== undefined && v !== 'equivalent') {
        regrouped++;
        missingMarkets.delete(id);
      }
    }
  }
  const toAsk = [...missingMarkets, ...(sameCatalog ? [] : missingRows)];
  const lost: string[] = sameCatalog ? missingRows.map((id) => `catalog ${id}`) : [];
  let explained = 0;
  if (toAsk.length > CHECK_CAP) lost.push(`${toAsk.length} markets missing (more than ${CHECK_CAP})`);
  else
    for (const id of new Set(toAsk)) {
      if (await venueDropped(id, key)) explained++;
      else lost.push(id);
    }
  // The lost that are catalog rows only (a venue market of a sports event has the same id form).
  const rows = new Set(missingRows);
  const lostRows = lost.filter((id) => rows.has(id) && !missingMarkets.has(id));
  // An event that left the list must have lost every venue market the venues still list open.
  const lostEvents = missingEvents.filter((e) => [...before.sports.get(e)!].some((m) => lost.includes(m)));
  // A venue market in at most one current event, after as before.
  const seen = new Map<string, string>();
  const twice: string[] = [];
  for (const [e, ms] of after.sports)
    for (const m of ms) {
      if (seen.has(m)) twice.push(`${m} in ${seen.get(m)} and ${e}`);
      else seen.set(m, e);
    }
  return { sportsMarkets, missingMarkets: missingMarkets.size + regrouped, regrouped, missingEvents: missingEvents.length, missingRows: missingRows.length, explained, lost, lostRows, lostEvents, twice, sameCatalog };
}

async function createKey(plan: string): Promise<{ id: string; key: string }> {
  const account = `chaos-${plan}-${randomBytes(4).toString('hex')}`;
  const out = await sh('npx', ['tsx', 'bin/keys.ts', 'create', '--account', account, '--plan', plan]);
  const key = /^key:\s+(\S+)/m.exec(out)?.[1];
  const id = /^key id:\s+(\S+)/m.exec(out)?.[1];
  if (!key || !id) throw new Error(`bin/keys.ts create printed no key:\n${out}`);
  return { id, key };
}

// Stopped from outside (.ci/run's cleanup, Ctrl-C): stop what this run started, as its end does.
let stopping = false;
for (const sig of ['SIGTERM', 'SIGINT'] as const)
  process.on(sig, () => {
    if (stopping) return;
    stopping = true;
    say(`${sig}: stack.sh stop, make down`);
    driving = false;
    void stack('stop')
      .catch((e: Error) => say(e.message))
      .then(() => sh('make', ['down']))
      .catch((e: Error) => say(e.message))
      .finally(() => process.exit(1));
  });

let failedToRun: unknown;
try {
  say(`directory ${dir}; ports ${JSON.stringify(P)}`);
  enter('start');
  say('make up');
  await sh('make', ['up']);
  say('bash infra/scripts/stack.sh start');
  await stack('start');
  const [load, probe, free] = await Promise.all([createKey('business'), createKey('business'), createKey('free')]);
  say('keys created with bin/keys.ts (business x2, free)');
  const warm = await recovered(Date.now(), probe.key);
  check('start: every replica answers the four routes 2xx', warm !== undefined, warm === undefined ? `not within ${RECOVERY_BOUND_S} s` : `after ${warm.toFixed(1)} s`);

  enter('steady');
  drive({ load: load.key, free: free.key });
  await sleep(10_000);

  await step('pollers', [], async () => {
    await stack('kill', 'pollers');
    await stack('start', 'pollers');
  }, probe.key);
  const victim = `api-${P.api[1]}`;
  await step('api', [`connection@1`, 'timeout@1'], async () => {
    await stack('kill', victim);
    await sleep(3000);
    await stack('start', victim);
  }, probe.key);
  const served0 = samples.filter((s) => s.phase === 'api' && s.replica === 0 && s.key === 'load' && s.outcome === 200).length;
  check('api: the other replica served while one was down', served0 > 0, `${served0} 2xx from ${API[0]}`);
  await step('redis', ['502 upstream_unavailable', '503 service_unavailable'], async () => {
    await script('stop-redis.sh');
    await sleep(2000);
    await script('start-redis.sh');
  }, probe.key);
  await step('kafka', [], async () => {
    await script('stop-kafka.sh');
    await sleep(2000);
    await script('start-kafka.sh');
  }, probe.key);
  if (WITH_PROCESSORS) {
    const reader = await createKey('business');
    // SIGKILL (a crash) and SIGTERM (the service's own shutdown) of the processors while the pollers
    // keep publishing. Around each: the canonical read model (the canonical-store sink's market
    // documents in Redis) counted every 2 s must never fall (5% slack for markets the venues
    // closed), and the whole served content (every sports event with its venue markets, every
    // catalog row) read before the fault must still be served after recovery, except what the
    // venues themselves no longer list open, and the prop groups the default `strict` policy no
    // longer lists because a venue's settlement rules in them now differ (still served, with their
    // verdict, under same_prop: a venue listing the same prop with other rules is the venues' doing).
    for (const how of ['kill', 'term'] as const) {
      const name = `processors-${how}`;
      await sportsCaughtUp(name);
      const served0 = await readServed(reader.key);
      const docs0 = await marketDocuments();
      const before = docs0.size;
      const counts: number[] = [];
      // The documents of before missing from the lowest count (named when the check fails).
      let fewest: { n: number; missing: string[] } | undefined;
      let watching = true;
      const watcher = (async () => {
        while (watching) {
          const docs = await marketDocuments().catch(() => undefined);
          counts.push(docs?.size ?? -1);
          if (docs && (!fewest || docs.size < fewest.n)) fewest = { n: docs.size, missing: [...docs0].filter((k) => !docs.has(k)) };
          await sleep(2000);
        }
      })();
      let idsAtFault: { sports: string | null } = { sports: null };
      let faultAt = Date.now();
      let restartedAt = Date.now();
      await step(name, [], async () => {
        faultAt = Date.now();
        if (how === 'kill') await stack('kill', 'processors');
        else await stack('stop', 'processors');
        idsAtFault = await currentIds();
        restartedAt = Date.now();
        await stack('start', 'processors');
      }, probe.key);
      // From here, every second: when the restarted processors published a sports snapshot (a new
      // id; the first is the one of before the fault, republished from the topics) and when one
      // read after the restart was served (observed_at at or after it): a slow restart from a stuck one.
      const firstSports: { published?: number; fresh?: number; observedAt?: string } = {};
      let timing = true;
      const timer = (async () => {
        while (timing && firstSports.fresh === undefined) {
          const now = Date.now();
          if (firstSports.published === undefined && (await currentIds().catch(() => idsAtFault)).sports !== idsAtFault.sports) firstSports.published = now;
          const res = await fetch(`${API[0]}/v1/matching-markets/sports?limit=1`, { headers: { authorization: `Bearer ${reader.key}` }, signal: AbortSignal.timeout(5000) }).catch(() => undefined);
          const observedAt = res?.status === 200 ? ((await res.json()) as { snapshot?: { observed_at?: string } }).snapshot?.observed_at : undefined;
          if (observedAt && Date.parse(observedAt) >= restartedAt) Object.assign(firstSports, { fresh: now, observedAt });
          await sleep(1000);
        }
      })();
      // Past the first delta crawls after the restart (POLL_INTERVAL_MS 2 s), where a restart that
      // forgot its crawl state deleted what it had not seen again.
      await sleep(25_000);
      watching = false;
      await watcher;
      const seen = counts.filter((n) => n >= 0);
      const least = Math.min(...seen);
      const kept = seen.length > 0 && least >= before * 0.95;
      // On a failure: which documents went (by venue, a sample by id) and what canonical.markets
      // holds for the sample, in seconds from the fault (the restart began at the second figure).
      let missing = '';
      if (!kept && fewest?.missing.length) {
        const byVenue = new Map<string, number>();
        for (const k of fewest.missing) byVenue.set(k.split(':')[0]!, (byVenue.get(k.split(':')[0]!) ?? 0) + 1);
        const sample = fewest.missing.slice(0, 5);
        const history = await canonicalHistory(sample, faultAt).catch((e: Error) => new Map([[sample[0]!, [`canonical.markets not read: ${e.message}`]]]));
        missing =
          `; missing at the least: ${[...byVenue].map(([v, n]) => `${v} ${n}`).join(', ')}; restart began ${secs(restartedAt - faultAt)} s after the fault; canonical.markets: ` +
          sample.map((k) => `${k} [${(history.get(k) ?? []).slice(-3).join('; ')}]`).join(', ');
      }
      check(
        `${name}: the canonical read model is not emptied`,
        kept,
        `${before} market documents before; after the fault, ${seen.length} counts: least ${least}, last ${seen.at(-1)}${missing}`,
      );
      for (let i = 0; (await currentIds()).sports === idsAtFault.sports && i < 60; i++) await sleep(1000);
      for (let i = 0; firstSports.fresh === undefined && i < 60; i++) await sleep(1000);
      timing = false;
      await timer;
      const served1 = await readServed(reader.key);
      const since = (t: number | undefined) => (t === undefined ? 'none yet' : `${secs(t - restartedAt)} s`);
      check(
        `${name}: the restarted processors published a sports snapshot`,
        served1.sportsId !== idsAtFault.sports,
        `snapshot ${idsAtFault.sports} at the fault, ${served1.sportsId} now; after the restart began: a new snapshot ${since(firstSports.published)}, the first read after it ${since(firstSports.fresh)}${firstSports.observedAt ? ` (observed_at ${firstSports.observedAt})` : ''}`,
      );
      let c = await compareServed(served0, served1, reader.key);
      // Catalog rows only: rows a newer snapshot lacks while their venue still lists them open are
      // judged once more on the next snapshot, if one is published within two minutes (the stack
      // builds one every CATALOG_REFRESH_MS, 30 minutes by default, so usually none is: the same
      // snapshot is judged again). The rows CI once saw missing (2 of 13,816) were skipped by the
      // pollers' offset walks of a listing that moved during the crawl, fixed in the
      // listing kit (pipelines/venues/adapters/listing.ts, PAGE_OVERLAP); a row still missing is lost.
      if (c.lost.length && !c.sameCatalog && c.lostEvents.length === 0 && c.lost.length === c.lostRows.length) {
        const first = served1.catalogId;
        for (let i = 0; (await currentIds()).catalog === first && i < 120; i++) await sleep(1000);
        const served2 = await readServed(reader.key);
        const again = await compareServed(served0, served2, reader.key);
        say(`${name}: ${c.lost.length} catalog rows missing from snapshot ${first}; the next snapshot ${served2.catalogId} misses ${again.lost.length} of them open on their venue`);
        c = { ...again, lost: again.lost.filter((id) => c.lost.includes(id)) };
      }
      check(
        `${name}: the served content is kept (sports events with their venue markets, catalog rows)`,
        c.lost.length === 0 && c.lostEvents.length === 0 && served1.sports.size > 0 && served1.catalog.size > 0,
        `before: ${served0.sports.size} events, ${c.sportsMarkets} venue markets, ${served0.catalog.size} catalog rows; after: ${served1.sports.size} events, ${served1.catalog.size} rows; ` +
          `missing ${c.missingEvents} events, ${c.missingMarkets} venue markets, ${c.missingRows} rows (${c.sameCatalog ? 'same catalog snapshot' : 'a newer catalog snapshot'}), ` +
          `${c.explained} of them no longer open on their venue, ${c.regrouped} venue markets in a prop group whose settlement rules now differ (served under same_prop); lost: ${c.lost.length ? c.lost.slice(0, 10).join(', ') : 'none'}`,
      );
      check(`${name}: a venue market is in at most one served event`, c.twice.length === 0, c.twice.length ? c.twice.slice(0, 5).join('; ') : `${served1.sports.size} events`);
      contentFigures.push(`${name}: ${c.sportsMarkets} venue markets in ${served0.sports.size} events and ${served0.catalog.size} catalog rows compared, ${c.missingMarkets + c.missingRows} missing, ${c.explained} closed on their venue, ${c.regrouped} in a group whose rules now differ, ${c.lost.length} lost`);
    }
  } else say('processors step skipped (CHAOS_PROCESSORS=0)');

  driving = false;
  await Promise.all(loops);
  const listed = await sh('npx', ['tsx', 'bin/keys.ts', 'list']);
  const lost = [load, probe, free].filter((k) => !listed.includes(k.id));
  check('no key was lost', lost.length === 0 && !samples.some((s) => s.outcome === 401), lost.length ? `missing: ${lost.map((k) => k.id).join(', ')}` : `3 of 3 listed, no 401 in ${samples.length} requests`);
  const freeAdmitted = samples.filter((s) => s.key === 'free' && s.outcome === 200);
  const most = maxCertainInWindow(freeAdmitted);
  check('the free key is never admitted more than 10 times in 60 s, across both replicas', most <= FREE_LIMIT, `at most ${most} in any 60 s window (${freeAdmitted.length} admitted, ${samples.filter((s) => s.key === 'free' && s.outcome === 429).length} refused 429)`);
} catch (e) {
  failedToRun = e;
  check('the suite ran to its end', false, (e as Error).message.split('\n').slice(0, 6).join(' | '));
} finally {
  driving = false;
  await Promise.all(loops).catch(() => {});
  say('stopping: stack.sh stop, make down');
  await stack('stop').catch((e: Error) => say(e.message));
  await sh('make', ['down']).catch((e: Error) => say(e.message));
}

// ---- figures ----
const served = samples.filter((s) => typeof s.outcome === 'number' && s.outcome >= 200 && s.outcome < 300);
console.log('\nfigures');
console.log(`  wall time               ${secs(Date.now() - T0)} s`);
console.log(`  requests                ${samples.length} (${served.length} served 2xx: ${P.api.map((p, r) => `${p}: ${served.filter((s) => s.replica === r).length}`).join(', ')})`);
console.log(`  not 2xx, by code        ${summarize(samples.filter((s) => !served.includes(s))) || 'none'}`);
for (const [name, s] of Object.entries(recovery)) console.log(`  recovery ${name.padEnd(14)} ${s === undefined ? `not within ${RECOVERY_BOUND_S} s` : `${s.toFixed(1)} s`}`);
for (const f of contentFigures) console.log(`  content ${f}`);
const passed = checks.filter((c) => c.ok).length;
const failed = checks.length - passed;
console.log(`\n${passed} passed, ${failed} failed`);
if (failed === 0 && process.env.KEEP !== '1') rmSync(dir, { recursive: true, force: true });
else console.log(`logs kept in ${dir} (stack/logs/, redis/, kafka/logs/, registry/logs/)`);
if (failedToRun) console.error(failedToRun);
process.exit(failed === 0 ? 0 : 1);
