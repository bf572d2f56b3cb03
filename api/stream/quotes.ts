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
import { createHash } from 'node:crypto';
import type { MarketDetail, OutcomeDetail, Pricing } from '../../pipelines/venues/adapters/live.ts';
import { adapterFor } from '../../pipelines/venues/adapters/index.ts';
import { isRec } from '../../pipelines/venues/adapters/native.ts';

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
   * not move; neither is a change of the quotes. Held as a SHA-1 digest (27 characters) for every
   * market quoted: the JSON it digests repeats most of the quote.
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
    fingerprint: createHash('sha1').update(JSON.stringify([d.status, d.outcomes, p.availability, p.source, p.as_of_kind, p.neg_risk])).digest('base64').slice(0, 27),
  };
}

/**
 * The markets a raw record quotes. A record without the venue's documented fields quotes nothing
 * (the detail route would answer 502 for it; the stream skips it and keeps the last good quote).
 */
export function quotesOfRecord(venue: string, recordType: string, payload: string, readStartedAt: number): QuotedMarket[] {
  // A venue without an adapter quotes nothing (adapterFor throws, as does a malformed record).
  try {
    const p = JSON.parse(payload) as unknown;
    return isRec(p) ? adapterFor(venue).listedDetails(recordType, p, iso(readStartedAt), readStartedAt).map((x) => quoted(x.detail, x.aliases)) : [];
  } catch {
    return [];
  }
}
