// The `quotes` channel of the push stream: which markets a raw venue record quotes, and what a
// `quote` event says of each. In: one record of a raw venue topic (`raw.venue_N`, as the pollers
// read the venue's open listing) and when its read began. Out: per market it holds, the composite id
// (and the other composite forms that name the same market: a venue_2 slug and condition id), and
// the market detail's `outcomes[]` and `pricing` envelope as GET /v1/markets/{market_id} builds them
// from the same record (the pure `build*` of each venue's adapter,
// pipelines/venues/adapters/venue_N/market.ts), with `observed_at` the read's start. Pure: no I/O, no clock.
//
// What the log carries decides what the stream can say: the listing records of venue_1, venue_2,
// venue_3 (`pricing.source: market_record`) and venue_7 (offers on the event record) carry the
// quotes the detail route serves. The pollers read no books, so for the book venues the records
// carry what the detail route keeps when its book read fails ("If a book read fails ... venue_4 and
// venue_5 report unavailable; venue_6, venue_8, venue_9 keep the record's marks"): marks, indicative,
// or no quote. Fees are not on the event (the detail route reads them with extra hops).
import type { Provider } from '../routes/table.ts';
import { BOOK_FAILED, type MarketDetail, type OutcomeDetail, type Pricing } from '../../pipelines/venues/adapters/live.ts';
import { buildVenue1 } from '../../pipelines/venues/adapters/venue_1/market.ts';
import { buildVenue2 } from '../../pipelines/venues/adapters/venue_2/market.ts';
import { buildVenue3 } from '../../pipelines/venues/adapters/venue_3/market.ts';
import { buildVenue4 } from '../../pipelines/venues/adapters/venue_4/market.ts';
import { buildVenue5Outcome, buildVenue5Question } from '../../pipelines/venues/adapters/venue_5/market.ts';
import { buildVenue6 } from '../../pipelines/venues/adapters/venue_6/market.ts';
import { buildVenue7 } from '../../pipelines/venues/adapters/venue_7/market.ts';
import { buildVenue8 } from '../../pipelines/venues/adapters/venue_8/market.ts';
import { buildVenue9Child, buildVenue9Parent } from '../../pipelines/venues/adapters/venue_9/market.ts';
import { feesUnavailable } from '../../pipelines/venues/fees.ts';
import { arr, isRec, str, type Rec } from '../../pipelines/venues/adapters/native.ts';
import { NOT_FOUND } from '../../pipelines/venues/client/http.ts';

/** The data of a `quote` event (and of each element of the quotes `snapshot`). */
export interface QuoteBody {
  market_id: string;
  status: string;
  outcomes: OutcomeDetail[];
  pricing: Pricing;
}

export interface QuotedMarket {
  /** The composite id the detail route answers with (`data.id`). */
  id: string;
  /** Other composite ids of the same market (venue_2: slug, condition id), lower case where the venue's ids are. */
  aliases: string[];
  body: QuoteBody;
  /**
   * What a change is judged on: status, the outcomes' quotes and the envelope without its times.
   * `observed_at` moves with every poll and `as_of` with every refresh of a record whose quotes did
   * not move; neither is a change of the quotes.
   */
  fingerprint: string;
}

const iso = (ms: number) => new Date(ms).toISOString();

function quoted(d: MarketDetail, aliases: string[] = []): QuotedMarket {
  const body: QuoteBody = { market_id: d.id, status: d.status, outcomes: d.outcomes, pricing: d.pricing };
  const p = d.pricing;
  return {
    id: d.id,
    aliases: aliases.filter((a) => a !== d.id),
    body,
    fingerprint: JSON.stringify([d.status, d.outcomes, p.availability, p.source, p.as_of_kind, p.neg_risk]),
  };
}

/** Each venue's listing record types and the markets one record holds. */
const READERS: Record<Provider, (recordType: string, p: Rec, observedAt: string, at: number) => QuotedMarket[]> = {
  venue_1: (t, p, o) => (t === 'market' ? [quoted(buildVenue1(p, feesUnavailable(o, null), o))] : []),
  venue_2: (t, p, o) => {
    if (t !== 'market') return [];
    const aliases = [str(p.slug), str(p.conditionId)?.toLowerCase()].filter((x): x is string => !!x).map((x) => `venue_2:${x}`);
    return [quoted(buildVenue2(p, o), aliases)];
  },
  venue_3: (t, p, o) => (t === 'market' ? [quoted(buildVenue3(p, o))] : []),
  venue_4: (t, p, o) => (t === 'market' ? [quoted(buildVenue4(p, BOOK_FAILED, feesUnavailable(o, null), o))] : []),
  venue_5: (t, p, o) => {
    if (t !== 'question') return [];
    // The question (a grouped market) and each of its outcome markets.
    const out = [quoted(buildVenue5Question({ question: p }, [], o))];
    for (const x of arr(p.outcomes)) if (isRec(x)) out.push(quoted(buildVenue5Outcome({ outcome: x, question_id: p.question_id }, BOOK_FAILED, o)));
    return out;
  },
  venue_6: (t, p, o) => (t === 'market' ? [quoted(buildVenue6(p, BOOK_FAILED, o))] : []),
  venue_7: (t, p, o) => {
    if (t !== 'event') return [];
    const ev = str(p.event_id);
    if (!ev) return [];
    const out: QuotedMarket[] = [];
    for (const m of arr(p.markets)) {
      if (!isRec(m) || str(m.type_id) === null) continue;
      // The pair (the line flagged favourite) and each line by its three-part id.
      const ids = [`${ev}:${str(m.type_id)}`];
      for (const l of arr(m.lines)) if (isRec(l) && typeof l.line === 'number') ids.push(`${ev}:${str(m.type_id)}:${venue7Line(String(l.line))}`);
      for (const id of ids) {
        const d = buildVenue7(p, id, o);
        if (d !== NOT_FOUND) out.push(quoted(d));
      }
    }
    return out;
  },
  venue_8: (t, p, o, at) => (t === 'market' ? [quoted(buildVenue8(p, BOOK_FAILED, o, at))] : []),
  venue_9: (t, p, o) => {
    if (t !== 'parent') return [];
    const out = [quoted(buildVenue9Parent(p, o))];
    for (const c of arr(p.children)) if (isRec(c)) out.push(quoted(buildVenue9Child({ ...c, parent: { title: p.title } }, BOOK_FAILED, o)));
    return out;
  },
};

/** A venue_7 line as the quotes channel keys it: `-1.50`, `-1.5` and `-1.5e0` name one line. */
export function venue7Line(line: string): string {
  return String(Number(line));
}

/**
 * The markets a raw record quotes. A record without the venue's documented fields quotes nothing
 * (the detail route would answer 502 for it; the stream skips it and keeps the last good quote).
 */
export function quotesOfRecord(venue: string, recordType: string, payload: string, readStartedAt: number): QuotedMarket[] {
  const read = READERS[venue as Provider];
  if (!read) return [];
  try {
    const p = JSON.parse(payload) as unknown;
    return isRec(p) ? read(recordType, p, iso(readStartedAt), readStartedAt) : [];
  } catch {
    return [];
  }
}
