// What the history SQL port's client tests share (sql-port.int.spec.ts with @clickhouse/client,
// sql-port-python.int.spec.ts with clickhouse-connect): the README's example queries, read from the
// README itself so the documented queries are the tested ones; rows written for them; and each
// example's answer worked out here from those rows, by hand, not by the engine.
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { History } from './history.ts';

const README = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'README.md');

/** The sql blocks between the README's example markers, in order. */
export function readmeExamples(text = readFileSync(README, 'utf8')): string[] {
  const start = text.indexOf('<!-- sql-port examples');
  const end = text.indexOf('<!-- /sql-port examples -->');
  if (start < 0 || end < start) throw new Error(`README.md has no sql-port examples section (${README})`);
  return [...text.slice(start, end).matchAll(/```sql\n([\s\S]*?)```/g)].map((m) => m[1]!.trim());
}

/** Columns whose values are times (compared as Unix ms) or counts (compared as numbers). */
export const TIME_COLUMNS = new Set(['hour', 'last_read', 'read_started_at', 'observed_at']);
export const NUMBER_COLUMNS = new Set(['records', 'markets', 'events', 'submarkets', 'submarket_count', 'is_deleted', 'seconds_ago']);

/** A row as a client returned it, in comparable form: times as Unix ms, counts as numbers. */
export function normalizeRow(row: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(row)) {
    if (TIME_COLUMNS.has(k) && typeof v === 'string') out[k] = Date.parse(`${v.replace(' ', 'T')}Z`);
    else if (NUMBER_COLUMNS.has(k)) out[k] = Number(v);
    else out[k] = v;
  }
  return out;
}

interface RawRead {
  venue: string;
  native_id: string;
  read_started_at: number;
  record_type: string;
  payload: string;
  partition: number;
  offset: number;
}

interface EventVersion {
  event_id: string;
  league: string;
  title: string;
  population: string;
  submarket_count: number;
  observed_at: number;
  is_deleted: number;
  offset: number;
}

export interface Fixture {
  /** Values for the examples' {name:Type} placeholders. */
  params: Record<string, string>;
  /** Per example (README order): the rows expected, normalized (see normalizeRow). */
  expected: Record<string, unknown>[][];
  /** The least seconds_ago of each venue in the freshness example (it grows with the clock). */
  freshness: Record<string, number>;
  /** Rows in raw_records and matched_events after the fixture's writes (to see nothing was changed). */
  counts: { raw: number; matched: number };
}

const HOUR = 3_600_000;
const MINUTE = 60_000;

/** Writes the rows into history's raw_records and matched_events, and returns what each example answers. */
export async function writeFixture(history: History, now = Date.now()): Promise<Fixture> {
  const tag = randomBytes(3).toString('hex');
  const reads: RawRead[] = [
    { venue: 'venue_1', native_id: `KX-${tag}-A`, read_started_at: now - 10 * MINUTE, record_type: 'market', payload: '{"status":"open","yes_bid":41}', partition: 0, offset: 1 },
    { venue: 'venue_1', native_id: `KX-${tag}-A`, read_started_at: now - 5 * MINUTE, record_type: 'market', payload: '{"status":"open","yes_bid":44}', partition: 0, offset: 2 },
    { venue: 'venue_1', native_id: `KX-${tag}-B`, read_started_at: now - 5 * MINUTE, record_type: 'market', payload: '{"status":"open"}', partition: 0, offset: 3 },
    { venue: 'venue_2', native_id: `${tag}-42`, read_started_at: now - 2 * MINUTE, record_type: 'market', payload: '{"id":42}', partition: 1, offset: 1 },
    { venue: 'venue_2', native_id: `${tag}-42`, read_started_at: now - 3 * 24 * HOUR, record_type: 'market', payload: '{"id":42}', partition: 1, offset: 0 },
  ];
  const row = (r: RawRead) => ({ ...r, topic: `raw.${r.venue}`, logged_at: r.read_started_at + 50 });
  // The second read once more, as a redelivery writes it: FINAL counts it once.
  await history.insert('raw_records', [...reads.map(row), row(reads[1]!)]);

  const e1 = `nba-bos-nyk-${tag}`;
  const e2 = `nba-lal-gsw-${tag}`;
  const e3 = `nfl-kc-buf-${tag}`;
  const versions: EventVersion[] = [
    { event_id: e1, league: 'nba', title: 'Celtics at Knicks', population: 'full', submarket_count: 3, observed_at: now - 60_000, is_deleted: 0, offset: 10 },
    { event_id: e1, league: 'nba', title: 'Celtics at Knicks', population: 'full', submarket_count: 4, observed_at: now - 30_000, is_deleted: 0, offset: 11 },
    { event_id: e2, league: 'nba', title: 'Lakers at Warriors', population: 'full', submarket_count: 2, observed_at: now - 90_000, is_deleted: 0, offset: 5 },
    { event_id: e2, league: 'nba', title: 'Lakers at Warriors', population: 'full', submarket_count: 2, observed_at: now - 20_000, is_deleted: 1, offset: 6 },
    { event_id: e3, league: 'nfl', title: 'Chiefs at Bills', population: 'partial', submarket_count: 2, observed_at: now - 45_000, is_deleted: 0, offset: 7 },
  ];
  await history.insert(
    'matched_events',
    versions.map((v) => ({
      ...v,
      sport: v.league === 'nfl' ? 'football' : 'basketball',
      scheduled_date: new Date(now).toISOString().slice(0, 10),
      participant_keys: [],
      body: '{}',
      topic: 'matched.events',
      partition: 0,
    })),
  );

  // 1: reads of the last day per venue and hour (the redelivered copy collapsed by FINAL).
  const perHour = new Map<string, { venue: string; hour: number; records: number; ids: Set<string> }>();
  for (const r of reads.filter((r) => r.read_started_at >= now - 24 * HOUR)) {
    const hour = Math.floor(r.read_started_at / HOUR) * HOUR;
    const k = `${hour}|${r.venue}`;
    const g = perHour.get(k) ?? { venue: r.venue, hour, records: 0, ids: new Set<string>() };
    g.records++;
    g.ids.add(r.native_id);
    perHour.set(k, g);
  }
  const byHour = [...perHour.values()]
    .sort((a, b) => a.hour - b.hour || a.venue.localeCompare(b.venue))
    .map((g) => ({ venue: g.venue, hour: g.hour, records: g.records, markets: g.ids.size }));
  // 2: the newest read per venue.
  const last = new Map<string, number>();
  for (const r of reads) last.set(r.venue, Math.max(last.get(r.venue) ?? 0, r.read_started_at));
  const venues = [...last.keys()].sort();
  const freshness = Object.fromEntries(venues.map((v) => [v, Math.floor((now - last.get(v)!) / 1000)]));
  // 3: one venue market's reads, newest first.
  const oneMarket = reads
    .filter((r) => r.venue === 'venue_1' && r.native_id === `KX-${tag}-A`)
    .sort((a, b) => b.read_started_at - a.read_started_at)
    .map((r) => ({ read_started_at: r.read_started_at, record_type: r.record_type, payload: r.payload }));
  // 4: events whose newest version is not a removal, per league.
  const newest = new Map<string, EventVersion>();
  for (const v of versions) if ((newest.get(v.event_id)?.offset ?? -1) < v.offset) newest.set(v.event_id, v);
  const leagues = new Map<string, { events: number; submarkets: number }>();
  for (const v of newest.values()) {
    if (v.is_deleted) continue;
    const g = leagues.get(v.league) ?? { events: 0, submarkets: 0 };
    g.events++;
    g.submarkets += v.submarket_count;
    leagues.set(v.league, g);
  }
  const perLeague = [...leagues.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([league, g]) => ({ league, ...g }));
  // 5: one event's versions in log order.
  const oneEvent = versions
    .filter((v) => v.event_id === e1)
    .sort((a, b) => a.offset - b.offset)
    .map((v) => ({ observed_at: v.observed_at, title: v.title, population: v.population, submarket_count: v.submarket_count, is_deleted: v.is_deleted }));

  return {
    params: { venue: 'venue_1', native_id: `KX-${tag}-A`, event_id: e1 },
    expected: [byHour, venues.map((venue) => ({ venue, last_read: last.get(venue)! })), oneMarket, perLeague, oneEvent],
    freshness,
    counts: { raw: reads.length, matched: versions.length },
  };
}

/** The placeholders of sql, with their values from params. */
export function paramsOf(sql: string, params: Record<string, string>): Record<string, string> {
  const names = [...sql.matchAll(/\{(\w+):/g)].map((m) => m[1]!);
  return Object.fromEntries(names.map((n) => [n, params[n]!]));
}

/** Statements the port must refuse (code 164 READONLY from the engine), each a write, DDL or a settings change. */
export const REFUSED = [
  "INSERT INTO raw_records (venue, native_id, read_started_at, payload, topic, partition, offset, logged_at) VALUES ('venue_9', 'x', now64(3), '{}', 'raw.venue_9', 0, 1, now64(3))",
  'CREATE TABLE notes (id UInt8) ENGINE = Memory',
  'ALTER TABLE raw_records DELETE WHERE 1',
  'DROP TABLE matched_events',
  'TRUNCATE TABLE raw_records',
  'SET readonly = 0',
  'SELECT 1 SETTINGS readonly = 0',
];
