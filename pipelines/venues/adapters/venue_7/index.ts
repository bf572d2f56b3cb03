// venue_7 (FORMATS.md "venue_7"): events listed by offset with a sport filter, each grouping its
// markets; odds offers per selection on the event record, a market's lines named
// `<event_id>:<market_type_id>:<line>`.
import type { OddsOffer, Quote } from '../../../../lib/quotes.ts';
import { quotesFromOdds } from '../../../../lib/quotes.ts';
import { joinTitle, numOf, objs, str, text } from '../fields.ts';
import { arr, filtered, obj, overlapped, records, type ListingStep } from '../listing.ts';
import type { ListedMarketQuotes, VenueAdapter } from '../types.ts';
import { canonicalizeVenue7 } from './canonical.ts';
import { venue7SourceQuotes } from './source-quotes.ts';
import { venue7NativeId } from './identifiers.ts';
import { readVenue7 } from './market.ts';
import { readVenue7 as readVenue7Event } from './event.ts';
import { buildVenue7 } from './market.ts';
import { venue7Line } from './identifiers.ts';
// The stream reads ids as market detail does: an empty id is still an id.
import { str as nativeStr } from '../native.ts';
import { NOT_FOUND } from '../../client/http.ts';
import { isObj, type Obj } from '../fields.ts';
import type { ListedDetail } from '../types.ts';

/**
 * A selection's back offers with a numeric odds and stake, in the venue's order. A loop, not
 * filter and flatMap: the price-history sink reads every offer of every open event listed.
 */
function backOffers(s: Obj): OddsOffer[] {
  const out: OddsOffer[] = [];
  if (!Array.isArray(s.back)) return out;
  for (const o of s.back as unknown[]) {
    if (!isObj(o)) continue;
    const odds = numOf(o.odds);
    const stake = numOf(o.stake);
    if (odds !== null && stake !== null) out.push({ odds, stake });
  }
  return out;
}

const listingSteps = (): ListingStep[] => [
  {
    name: 'events',
    first: () => ({ path: '/venue_7/events', query: { state: 'open', offset: 0, count: 100 } }),
    parse(body, req) {
      const b = obj(body, 'body');
      const items = arr(b.events, 'events');
      const end = Number(req.query.offset) + items.length;
      const total = Number(b.total);
      const next = items.length === 0 || (Number.isFinite(total) && end >= total) ? null : { path: req.path, query: { ...req.query, offset: overlapped(Number(req.query.offset), items.length) } };
      return { records: records(items, 'event', (o) => o.event_id, 'events'), next };
    },
  },
];

export const venue7: VenueAdapter<'venue_7'> = {
  provider: 'venue_7',
  listingSteps,
  sportsSteps: () => ['basketball', 'american_football', 'baseball', 'ice_hockey'].map((sp) => filtered(listingSteps()[0], `${sp} events`, { sport: sp })),
  finalRecordRequest: () => null,
  nativeId: venue7NativeId,
  notLookupId: (id) => (/^\d{1,3}$/.test(id) ? 'venue_7 outcome ids are small market-scoped integers and not lookup identifiers; send the event id or <event_id>:<market_id>' : undefined),
  listingRows(recordType, m) {
    if (recordType !== 'event') return [];
    // One row per market; the event carries the words for all of them.
    return objs(m.markets).flatMap((k) => {
      const nativeId = str(k.id);
      return nativeId === null ? [] : [{ nativeId, title: joinTitle(text(m.name), text(k.name)), listed: m.state === 'open' && k.state === 'open', wordsFrom: m }];
    });
  },
  categoryWords: (rec) => [rec.sport],
  quotedRecordTypes: ['event'],
  listingQuotes(recordType, m) {
    if (recordType !== 'event' || m.state !== 'open') return [];
    const eventId = str(m.event_id);
    if (eventId === null) return [];
    const out: ListedMarketQuotes[] = [];
    for (const k of objs(m.markets)) {
      const typeId = str(k.type_id);
      if (typeId === null || (k.state !== undefined && k.state !== 'open')) continue;
      const pair = `${eventId}:${typeId}`;
      const lines = objs(k.lines);
      for (const l of lines) {
        const line = numOf(l.line);
        // A line with a number is stored under the three-part id; a line without (moneyline)
        // under the pair, which names the market's one line.
        const id = line === null ? pair : `${pair}:${line}`;
        const sels = objs(l.selections);
        const quotes = quotesFromOdds(sels.map(backOffers));
        // "the pair resolves the line the venue currently flags favourite"
        const favourite = line !== null && (l.favourite === true || lines.length === 1);
        const outcomes = new Array<[string, Quote]>(sels.length);
        for (let i = 0; i < sels.length; i++) outcomes[i] = [str(sels[i].id) ?? String(i + 1), quotes[i]];
        out.push({ marketId: id, outcomes, venueTime: null, aliases: favourite ? [pair] : [] });
      }
    }
    return out;
  },
  canonicalMarkets: canonicalizeVenue7,
  sourceQuotes: venue7SourceQuotes,
  readMarket: readVenue7,
  readEvent: readVenue7Event,
  listedDetails(t, p, o) {
    if (t !== 'event') return [];
    const ev = nativeStr(p.event_id);
    if (!ev) return [];
    const out: ListedDetail[] = [];
    for (const m of Array.isArray(p.markets) ? p.markets : []) {
      if (!isObj(m) || nativeStr(m.type_id) === null) continue;
      // The pair (the line flagged favourite) and each line by its three-part id.
      const ids = [`${ev}:${nativeStr(m.type_id)}`];
      for (const l of Array.isArray(m.lines) ? m.lines : []) if (isObj(l) && typeof l.line === 'number') ids.push(`${ev}:${nativeStr(m.type_id)}:${venue7Line(String(l.line))}`);
      for (const id of ids) {
        const d = buildVenue7(p, id, o);
        if (d !== NOT_FOUND) out.push({ detail: d });
      }
    }
    return out;
  },
};
