// The catalog stage. In: raw records of the nine raw topics. Out: history
// writes that stage every listing crawl (catalog_crawl_rows) and record each finished crawl
// (catalog_crawls; for a delta crawl also what it emitted and what vanished). Only records of listing crawls (read_id `listing:<provider>:<ulid>`) are
// staged; other feeds' records pass by. Pure over its input, and idempotent through the tables'
// ReplacingMergeTree keys, so a redelivered batch changes nothing. The snapshot build
// (builder.ts) reads what this stage staged.
import type { Provider } from '../../lib/vocabulary.ts';
import { PROVIDERS } from '../../lib/vocabulary.ts';
import { RAW_TOPIC_IDS, type RawRecord } from '../topics.ts';
import type { HistoryWrite, InRecord, StageDef, StageOutput } from '../runtime/types.ts';
import { normalizeListing } from './normalize.ts';
import { LISTING_FEED, type CrawlDone, type StagedRow } from './store.ts';

const isListing = (r: RawRecord): boolean => typeof r.read_id === 'string' && r.read_id.startsWith(`${LISTING_FEED}:`);

/** Pure: the rows and finished crawls one batch of raw records stages. */
export function stageRaw(records: readonly RawRecord[]): { rows: StagedRow[]; crawls: CrawlDone[] } {
  const rows: StagedRow[] = [];
  const crawls: CrawlDone[] = [];
  for (const r of records) {
    if (!isListing(r) || !PROVIDERS.includes(r.venue as Provider)) continue;
    const provider = r.venue as Provider;
    const crawlId = r.read_id as string;
    if (r.record_type === 'crawl_complete') {
      let p: { records?: unknown; completed_at?: unknown; delta?: unknown; emitted?: unknown; vanished?: unknown } = {};
      try {
        p = JSON.parse(r.payload) as typeof p;
      } catch {
        continue;
      }
      if (typeof p.records !== 'number') continue;
      crawls.push({
        provider,
        crawl_id: crawlId,
        started_at: r.read_started_at,
        completed_at: typeof p.completed_at === 'number' ? p.completed_at : r.read_started_at,
        row_count: p.records,
        // A delta crawl (change-only listing) wrote only what changed: its `emitted` records are staged
        // here, the rest of its listing is carried over from the crawls before it (store.ts).
        delta: p.delta === true ? 1 : 0,
        emitted: p.delta === true && typeof p.emitted === 'number' ? p.emitted : 0,
        vanished: p.delta === true && Array.isArray(p.vanished) ? p.vanished.filter((v): v is string => typeof v === 'string') : [],
      });
      continue;
    }
    let payload: unknown;
    try {
      payload = JSON.parse(r.payload);
    } catch {
      payload = null;
    }
    const normalized = normalizeListing(provider, r.record_type, payload);
    const recordId = `${r.record_type}:${r.native_id}`;
    if (normalized.length === 0) {
      // Still counted towards the crawl's completeness, never listed.
      rows.push({ provider, crawl_id: crawlId, record_id: recordId, native_id: `#record:${recordId}`, title: '', category: 'unknown', listed: 0 });
      continue;
    }
    for (const n of normalized) {
      rows.push({ provider, crawl_id: crawlId, record_id: recordId, native_id: n.nativeId, title: n.title, category: n.category, listed: n.listed ? 1 : 0 });
    }
  }
  return { rows, crawls };
}

export function catalogStage(prefix = ''): StageDef {
  return {
    name: 'catalog',
    inputs: RAW_TOPIC_IDS,
    // Normalizing a listing record costs about 70 us: slices of 128 keep the event loop, which the
    // API shares on the embedded default, free every 10 ms or so (bench/crawl-latency.md).
    sliceRecords: 128,
    handle(records: InRecord[]): StageOutput {
      const raws = records.map((r) => r.value as RawRecord | null).filter((v): v is RawRecord => v !== null);
      const { rows, crawls } = stageRaw(raws);
      const history: HistoryWrite[] = [];
      if (rows.length) history.push({ table: `${prefix}catalog_crawl_rows`, rows: rows as unknown as Record<string, unknown>[] });
      if (crawls.length) history.push({ table: `${prefix}catalog_crawls`, rows: crawls as unknown as Record<string, unknown>[] });
      return { history };
    },
    sinks: { tables: [`${prefix}catalog_crawl_rows`, `${prefix}catalog_crawls`] },
  };
}
