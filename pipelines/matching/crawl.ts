// Crawl helper for the evaluation and the benchmark: reads every venue's open listing over HTTP
// exactly as the pollers do (their documented listing steps), and the sports data source's rosters.
// In: a venue base URL. Out: the raw records per venue and a roster book. I/O only; the matching
// itself stays in the pure modules.
import { PROVIDERS } from '../../lib/vocabulary.ts';
import { adapterFor } from '../venues/adapters/index.ts';
import { venueGet, VenueConnectionError } from '../venues/client/http.ts';
import { backoffDelay, DEFAULT_BACKOFF, type BackoffPolicy } from '../venues/pollers/backoff.ts';
import type { Provider } from './types.ts';
import type { RosterBook, Roster } from './props.ts';
import { TEAMS, LEAGUE_LIST } from './teams.ts';

/** Every venue the registry holds, in the vocabulary's order. */
export const PROVIDER_LIST: Provider[] = [...PROVIDERS];

export interface CrawledRecord {
  provider: Provider;
  recordType: string;
  nativeId: string;
  payload: unknown;
  readStartedAt: number;
}

/** A venue GET through the one venue client (client/http.ts venueGet), as the pollers make it. */
/** As many tries of a read as a poller gives a page (pollers/poller.ts pageAttempts). */
export const READ_ATTEMPTS = 5;

/**
 * A read that got no answer (the connection reset or closed before the headers, or the body cut
 * off) is tried again after the pollers' backoff, as a poller tries a page again: on a loaded
 * machine a keep-alive connection the simulator has just closed is reused now and then (`read
 * ECONNRESET`), and the evaluation died of one such read with everything before it lost. An answer,
 * whatever its status, is never tried again.
 */
async function getJson(url: string, attempts = READ_ATTEMPTS, backoff: BackoffPolicy = DEFAULT_BACKOFF): Promise<{ status: number; body: unknown }> {
  for (let attempt = 1; ; attempt++) {
    let res;
    try {
      res = await venueGet(url, { signal: AbortSignal.timeout(60_000) });
    } catch (e) {
      if (!(e instanceof VenueConnectionError) || attempt >= attempts) throw e;
      await new Promise((r) => setTimeout(r, backoffDelay(attempt, undefined, backoff)));
      continue;
    }
    return { status: res.status, body: res.status >= 200 && res.status < 300 ? (JSON.parse(res.text) as unknown) : undefined };
  }
}

async function getOk(url: string): Promise<unknown> {
  const res = await getJson(url);
  if (res.status < 200 || res.status >= 300) throw new Error(`${res.status} from ${url}`);
  return res.body;
}

export async function crawlVenue(base: string, provider: Provider, now: () => number = Date.now): Promise<CrawledRecord[]> {
  const out: CrawledRecord[] = [];
  // Once per crawl, the first read kept, as the pollers emit it: overlapping pages (adapters/listing.ts
  // PAGE_OVERLAP) read some records twice, and the evaluation counted such a market as its own pair.
  const seen = new Set<string>();
  for (const step of adapterFor(provider).listingSteps()) {
    let req = step.first();
    for (;;) {
      const qs = new URLSearchParams(Object.entries(req.query).map(([k, v]) => [k, String(v)])).toString();
      const readStartedAt = now();
      const body = await getOk(`${base}${req.path}?${qs}`);
      const page = step.parse(body, req);
      for (const r of page.records) {
        const key = `${r.recordType}:${r.nativeId}`;
        if (seen.has(key)) continue;
        seen.add(key);
        out.push({ provider, recordType: r.recordType, nativeId: r.nativeId, payload: r.payload, readStartedAt });
      }
      if (!page.next) break;
      req = page.next;
    }
  }
  return out;
}

/** Rosters of every team from the sports data source; a 404 is a roster gap (left out). */
export async function readRosters(base: string, now: number, staleAfterMs = 24 * 3600_000): Promise<RosterBook> {
  const rosters = new Map<string, Roster>();
  let source = 'sds';
  await Promise.all(
    LEAGUE_LIST.flatMap((league) =>
      TEAMS[league].map(async (t) => {
        const res = await getJson(`${base}/sportsdata/${league}/teams/${t.key.toUpperCase()}/roster`);
        if (res.status < 200 || res.status >= 300) return;
        const b = res.body as { source?: string; updated_at?: string; athletes?: { id: number | string; name: string }[] };
        if (b.source) source = b.source;
        rosters.set(`${league}:${t.key}`, {
          league,
          team: t.key,
          players: (b.athletes ?? []).map((a) => ({ athleteId: String(a.id), name: a.name })),
          readAt: b.updated_at ? Date.parse(b.updated_at) : now,
        });
      }),
    ),
  );
  return { source, rosters, staleAfterMs };
}
