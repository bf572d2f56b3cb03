// Restart safety of the matching stages, as an operator meets it: the processors process is killed
// (SIGKILL) or stopped (SIGTERM) at many points of a scripted week of crawls (full crawls, delta
// crawls that re-emit only what changed and name what vanished, a postponement, a delisting), and
// half-way through writing a round's matched.events, then restarted each time. Against a run of the
// same records that was never interrupted:
//   - every read model ends identical (canonical.markets, lifecycle.states, matched.events and the
//     published sports snapshot);
//   - a restart never deletes a market: every canonical.markets tombstone of the interrupted run is
//     one the uninterrupted run wrote too (the failure this guards: a restart read each market's last
//     change as its last read, and the next delta crawl deleted everything it had not re-emitted);
//   - no restore consumer group is left behind.
// On the embedded log always, and on Kafka where a broker is given (CI).
import { describe, expect, it } from 'vitest';
import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { available, requireKafka } from '../../../test/services/index.ts';
import { EmbeddedLog } from '../../log/embedded.ts';
import { KafkaLog } from '../../log/kafka.ts';
import type { Log } from '../../log/types.ts';
import { EmbeddedRegistry } from '../../registry/embedded.ts';
import { restoreContext } from '../../runtime/runner.ts';
import { randomPrefix, spawnStageProcess } from '../../runtime/testkit.ts';
import { avroSerde, type Serde } from '../../serde/index.ts';
import { createAllTopics, defineTopics, type Provider, type RawRecord, type TopicMap } from '../../topics.ts';
import { logRawSink } from '../../venues/pollers/sink.ts';
import { crawlComplete, venue1Records, venue2Records, type GameSpec } from '../fixtures.ts';
import type { StagesChildSettings } from './testdata/stages-child.ts';

const here = path.dirname(fileURLToPath(import.meta.url));
const kafka = await available('kafka');
const T0 = Date.parse('2026-11-20T15:00:00Z');
const S = 1000;

const tor: GameSpec = { league: 'nhl', away: 'tor', home: 'mtl', start: Date.parse('2026-11-24T00:00:00Z'), total: 6.5 };
const lal: GameSpec = { league: 'nba', away: 'lal', home: 'bos', start: Date.parse('2026-11-25T00:30:00Z'), spread: { team: 'bos', size: 4.5 }, total: 221.5 };
// The same game, postponed by a day (venue_2 moves first; venue_1 follows a crawl later).
const lalLater: GameSpec = { ...lal, start: lal.start + 86_400_000 };

const delta = (venue: string, id: string, at: number, fullStart: number, vanished: string[]): RawRecord => ({
  ...crawlComplete(venue, id, at),
  payload: JSON.stringify({ feed: 'sports', started_at: fullStart, delta: true, emitted: 0, vanished }),
});
const key = (r: RawRecord) => `${r.record_type}:${r.native_id}`;

/** A scripted sequence of crawls of venue_1 and venue_2 (records in the order the pollers write them). */
function timeline(): RawRecord[] {
  const out: RawRecord[] = [];
  const v1 = (g: GameSpec, at: number, id: string) => venue1Records(g, at, {}, id);
  const v2 = (g: GameSpec, at: number, id: string, idBase: number) => venue2Records(g, at, { idBase }, id);
  // F1: full crawls of both venues.
  let t = T0;
  const f1 = [...v1(tor, t, 'f1a'), ...v1(lal, t, 'f1a')];
  out.push(...f1, crawlComplete('venue_1', 'f1a', t));
  out.push(...v2(tor, t, 'f1b', 9_500_000), ...v2(lal, t, 'f1b', 9_600_000), crawlComplete('venue_2', 'f1b', t));
  const full1 = t;
  // D2, D3: deltas; nothing changed on venue_1; venue_1's tor total vanishes in D3.
  const torTotal = f1.find((r) => r.native_id.includes('TOTAL') && r.native_id.includes('TOR'))!;
  t += 2 * S;
  out.push(delta('venue_1', 'd2a', t, full1, []), delta('venue_2', 'd2b', t, full1, []));
  t += 2 * S;
  out.push(delta('venue_1', 'd3a', t, full1, [key(torTotal)]), delta('venue_2', 'd3b', t, full1, []));
  // D4: venue_2 postpones lal by a day (its changed records are re-emitted).
  t += 2 * S;
  out.push(...v2(lalLater, t, 'd4b', 9_600_000), delta('venue_2', 'd4b', t, full1, []), delta('venue_1', 'd4a', t, full1, []));
  // F5: full crawls; venue_1 now lists lal on its new day too; tor total still gone.
  t += 2 * S;
  const full5 = t;
  out.push(...v1(tor, t, 'f5a').filter((r) => r.native_id !== torTotal.native_id), ...v1(lalLater, t, 'f5a'), crawlComplete('venue_1', 'f5a', t));
  out.push(...v2(tor, t, 'f5b', 9_500_000), ...v2(lalLater, t, 'f5b', 9_600_000), crawlComplete('venue_2', 'f5b', t));
  // D6..D9: quiet deltas (nothing re-emitted): only a restart that forgets what was read deletes here.
  for (let i = 6; i <= 9; i++) {
    t += 2 * S;
    out.push(delta('venue_1', `d${i}a`, t, full5, []), delta('venue_2', `d${i}b`, t, full5, []));
  }
  // F10, D11: a last full crawl and a delta, so one-crawl-late deletions have settled.
  t += 2 * S;
  const full10 = t;
  out.push(...v1(tor, t, 'f10a').filter((r) => r.native_id !== torTotal.native_id), ...v1(lalLater, t, 'f10a'), crawlComplete('venue_1', 'f10a', t));
  out.push(...v2(tor, t, 'f10b', 9_500_000), ...v2(lalLater, t, 'f10b', 9_600_000), crawlComplete('venue_2', 'f10b', t));
  t += 2 * S;
  out.push(delta('venue_1', 'd11a', t, full10, []), delta('venue_2', 'd11b', t, full10, []));
  return out;
}

interface Outcome {
  canonical: Record<string, string>;
  tombstoned: string[];
  lifecycle: Record<string, string>;
  matched: Record<string, string>;
  snapshot: unknown;
  restoreGroups: string[];
}

async function readTopics(log: Log, serde: Serde, topics: TopicMap): Promise<Omit<Outcome, 'snapshot' | 'restoreGroups'>> {
  const ctx = restoreContext({ log, serde, topics }, `read.${randomPrefix()}`);
  const canonical = new Map<string, string>();
  const tombstoned = new Set<string>();
  await ctx.readCompacted('canonical.markets', (k, v) => {
    if (v === null) {
      canonical.delete(k!);
      tombstoned.add(k!);
    } else {
      // The market as matched; not when it last changed or in which crawl (readId, observedAt): with
      // three partitions per raw topic, which crawl first shows a change depends on how the consumer
      // interleaves partitions, and a restart changes that interleaving as a rebalance would.
      const b = JSON.parse(v.body) as { market: Record<string, unknown>; readId?: unknown };
      canonical.set(k!, JSON.stringify({ ...b, readId: undefined, market: { ...b.market, observedAt: undefined } }));
    }
  });
  const lifecycle = new Map<string, string>();
  await ctx.readCompacted('lifecycle.states', (k, v) => (v ? lifecycle.set(k!, v.state) : lifecycle.delete(k!)));
  const matched = new Map<string, string>();
  await ctx.readCompacted('matched.events', (k, v) =>
    v ? matched.set(k!, JSON.stringify([v.population, v.body, v.strict_prop_keys, v.lookup_ids])) : matched.delete(k!),
  );
  return { canonical: Object.fromEntries(canonical), tombstoned: [...tombstoned].sort(), lifecycle: Object.fromEntries(lifecycle), matched: Object.fromEntries(matched) };
}

/** Served events keyed by game (league-away-home), their ids left out of what is compared. */
function byGame(o: Outcome): Record<string, unknown> {
  const game = (id: string) => id.split('-').slice(0, 3).join('-');
  const out: Record<string, unknown> = {};
  for (const [id, v] of Object.entries(o.matched)) {
    const [population, body, strict, lookup] = JSON.parse(v) as [string, string, string[], string[]];
    const { event_id: _id, ...event } = JSON.parse(body) as Record<string, unknown>;
    void _id;
    out[game(id)] = { population, event, strict, lookup, state: o.lifecycle[id] };
  }
  const snap = o.snapshot as { entries: { id: string; population: string; submarkets: unknown }[] };
  for (const e of snap.entries) out[`snapshot:${game(e.id)}`] = { population: e.population, submarkets: e.submarkets };
  if (Object.keys(out).length !== 2 * Object.keys(o.matched).length)
    throw new Error(`served events and the snapshot disagree, or one game is served twice: matched.events ${Object.keys(o.matched).join(', ')}; snapshot ${snap.entries.map((e) => `${e.id} (${e.population})`).join(', ')}`);
  return out;
}

type Step = Pick<StagesChildSettings, 'dieAfterRecords' | 'dieMidPublish' | 'signal'>;

/** Produces the timeline, runs the stage process through the steps (each a run that dies) and a finishing run. */
async function run(kind: 'embedded' | 'kafka', steps: Step[]): Promise<Outcome> {
  const dir = mkdtempSync(path.join(tmpdir(), 'pm-match-restart-'));
  const prefix = randomPrefix();
  const topics = defineTopics({ prefix, partitions: 3 });
  const brokers = kind === 'kafka' ? (await requireKafka()).brokers : undefined;
  const serde = avroSerde(new EmbeddedRegistry(path.join(dir, 'registry')));
  const open = async (): Promise<Log> => (brokers ? new KafkaLog({ brokers }) : EmbeddedLog.open({ dir: path.join(dir, 'log'), compactIntervalMs: 0, fsyncIntervalMs: 0 }));
  let log = await open();
  await createAllTopics(log, topics);
  const producer = await log.producer();
  // Written as the pollers write them (a crawl's marker on every partition).
  const sink = logRawSink(producer, serde, topics);
  const byVenue = new Map<string, RawRecord[]>();
  for (const r of timeline()) byVenue.set(r.venue, [...(byVenue.get(r.venue) ?? []), r]);
  for (const [venue, list] of byVenue) await sink(venue as Provider, list);
  await producer.close();
  // The embedded log is one process's at a time: the stage process opens it.
  if (!brokers) await log.close();
  const base: StagesChildSettings = { dir, prefix, brokers, clock: T0 + 60 * S };
  for (const step of steps) {
    const child = spawnStageProcess(path.join(here, 'testdata/stages-child.ts'), 'STAGES_CHILD', { ...base, ...step }, () => {});
    await child.exited;
  }
  let final = '';
  const last = spawnStageProcess(path.join(here, 'testdata/stages-child.ts'), 'STAGES_CHILD', { ...base, finish: true }, (line) => {
    if (line.startsWith('final ')) final = line.slice('final '.length);
  });
  await last.exited;
  if (!brokers) log = await open();
  try {
    // A registry read afresh: the stage process registered the output schemas after this one loaded.
    const read = await readTopics(log, avroSerde(new EmbeddedRegistry(path.join(dir, 'registry'))), topics);
    const restoreGroups = brokers ? [] : readdirSync(path.join(dir, 'log', 'groups')).map(decodeURIComponent).filter((g) => g.includes('.restore.'));
    return { ...read, snapshot: JSON.parse(final) as unknown, restoreGroups };
  } finally {
    await log.close();
  }
}

const kills: Step[] = [
  // During the first full crawl, between crawls, during the delta crawls, mid-postponement, during
  // the later full crawls: SIGKILL and SIGTERM in turn, a few records into each run.
  { dieAfterRecords: 4, signal: 'SIGKILL' },
  { dieAfterRecords: 7, signal: 'SIGTERM' },
  { dieAfterRecords: 5, signal: 'SIGKILL' },
  { dieMidPublish: 1, signal: 'SIGKILL' },
  { dieAfterRecords: 9, signal: 'SIGKILL' },
  { dieAfterRecords: 6, signal: 'SIGTERM' },
  { dieAfterRecords: 8, signal: 'SIGKILL' },
  { dieMidPublish: 2, signal: 'SIGKILL' },
  { dieAfterRecords: 10, signal: 'SIGTERM' },
  { dieAfterRecords: 12, signal: 'SIGKILL' },
];

const kafkaKills: Step[] = [kills[0]!, kills[1]!, kills[3]!, kills[4]!];

// RESTART_KILL_SEED=<n>: twelve kill points drawn from a seeded generator instead of the list above
// (both logs), to hunt for restart faults in a loop; the seed makes a failure reproducible. Run so,
// it found the faults fixed in b52b50d, e12b99a, 35468b9 and e6e5b60 (about one run in three before them).
const seed = process.env.RESTART_KILL_SEED;
if (seed !== undefined) {
  let x = Number(seed) >>> 0 || 1;
  const rand = () => ((x = (Math.imul(x, 1664525) + 1013904223) >>> 0) / 2 ** 32);
  const drawn: Step[] = Array.from({ length: 12 }, () =>
    rand() < 0.2 ? { dieMidPublish: 1 + Math.floor(rand() * 3), signal: 'SIGKILL' as const } : { dieAfterRecords: 1 + Math.floor(rand() * 14), signal: rand() < 0.5 ? ('SIGKILL' as const) : ('SIGTERM' as const) },
  );
  kills.splice(0, kills.length, ...drawn);
  kafkaKills.splice(0, kafkaKills.length, ...drawn.slice(0, 4));
  console.log(`restart e2e: kill points from seed ${seed}: ${JSON.stringify(drawn)}`);
}

for (const kind of ['embedded', 'kafka'] as const) {
  const skip = kind === 'kafka' && !kafka.ok;
  describe.skipIf(skip)(`matching stages killed and restarted, ${kind} log${skip ? ` (${kafka.reason})` : ''}`, () => {
    it('end with every read model as an uninterrupted run, and never delete a market a restart did not see go', async () => {
      const reference = await run(kind, []);
      // The scenario is what it says: both games current, the tor total deleted, lal postponed.
      expect(Object.keys(reference.lifecycle)).toContain('nhl-tor-mtl-2026-11-23');
      expect(Object.keys(reference.lifecycle).some((id) => id.startsWith('nba-lal-bos-'))).toBe(true);
      expect(reference.tombstoned.length).toBeGreaterThan(0);
      expect(Object.keys(reference.canonical).length).toBeGreaterThan(4);
      // On Kafka each restart waits for the group to let the dead member go (its session, 10 s): fewer points there.
      const interrupted = await run(kind, kind === 'kafka' ? kafkaKills : kills);
      expect(interrupted.canonical).toEqual(reference.canonical);
      // A restart may delay a deletion; it never causes one.
      expect(interrupted.tombstoned.filter((k) => !reference.tombstoned.includes(k))).toEqual([]);
      expect(interrupted.restoreGroups).toEqual([]);
      // The served events, game by game: the same submarkets from the same venue markets, in the same
      // state, and never two served events of one game (byGame throws). The game that was never
      // postponed keeps its id exactly. The postponed one is compared without its id: which id it
      // ends with (its old date's, or the new one's) depends on whether a round ran while its old
      // date was still listed, and rounds are ticks of wall time, so that differs between runs.
      // On Kafka the order in which a backlog's partitions are read moves rounds relative to the
      // postponement: a round can see venue_1's new tickers beside its old ones (one game, re-listed).
      expect(Object.keys(interrupted.matched)).toContain('nhl-tor-mtl-2026-11-23');
      expect(interrupted.matched['nhl-tor-mtl-2026-11-23']).toEqual(reference.matched['nhl-tor-mtl-2026-11-23']);
      expect(byGame(interrupted)).toEqual(byGame(reference));
    }, 900_000);
  });
}
