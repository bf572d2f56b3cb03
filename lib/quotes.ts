// Quote derivation (spec: "Market detail" outcomes[] and "Pricing rules"). In: a venue's top of
// book in normalized levels (probabilities 0..1, sizes in shares), or venue_7 odds offers. Out:
// per-outcome quotes {price, bid, ask, last, bid_size, ask_size}. Pure.
//
// - "an empty or one-sided book yields null quotes on the empty side";
// - "price is the implied probability, a derived display number": the midpoint when both sides
//   exist, otherwise the venue's own mark/last when it publishes one, otherwise null;
// - venue_6 books are four-sided, the second side derived by complement;
// - venue_8 and venue_9 publish the YES side, the NO side is its complement;
// - venue_7 quotes come from odds offers (cheapest back offer = the named selection's ask, the
//   opposite selection's ask supplies the complementary bid, price = midpoint when both exist).

export interface Level {
  price: number;
  size: number;
}

export interface Quote {
  price: number | null;
  bid: number | null;
  ask: number | null;
  last: number | null;
  bid_size?: number;
  ask_size?: number;
}

/** Probabilities are rounded to 6 places so complements do not print as 0.30000000000000004. */
export const round6 = (x: number): number => Math.round(x * 1e6) / 1e6;
const inUnit = (x: number | null | undefined): x is number => typeof x === 'number' && Number.isFinite(x) && x >= 0 && x <= 1;

export function bestBid(levels: readonly Level[]): Level | null {
  let best: Level | null = null;
  for (const l of levels) if (inUnit(l.price) && l.size > 0 && (!best || l.price > best.price)) best = l;
  return best;
}
export function bestAsk(levels: readonly Level[]): Level | null {
  let best: Level | null = null;
  for (const l of levels) if (inUnit(l.price) && l.size > 0 && (!best || l.price < best.price)) best = l;
  return best;
}

export function midpoint(bid: number | null, ask: number | null): number | null {
  return bid !== null && ask !== null ? round6((bid + ask) / 2) : null;
}

/** One outcome's quote from its best bid/ask; `mark` is the venue's own price when published. */
export function quoteOf(bid: Level | null, ask: Level | null, last: number | null = null, mark: number | null = null): Quote {
  const q: Quote = {
    price: midpoint(bid?.price ?? null, ask?.price ?? null) ?? (inUnit(mark) ? round6(mark) : inUnit(last) ? round6(last) : null),
    bid: bid ? round6(bid.price) : null,
    ask: ask ? round6(ask.price) : null,
    last: inUnit(last) ? round6(last) : null,
  };
  if (bid) q.bid_size = bid.size;
  if (ask) q.ask_size = ask.size;
  return q;
}

const complementLevel = (l: Level | null): Level | null => (l ? { price: round6(1 - l.price), size: l.size } : null);

/**
 * YES-side book (venue_8, venue_9): the NO outcome's bid is 1 - YES ask (same size), its ask is
 * 1 - YES bid. Returns [yes, no].
 */
export function binaryFromYesSide(
  bids: readonly Level[],
  asks: readonly Level[],
  last: number | null = null,
): [Quote, Quote] {
  const b = bestBid(bids);
  const a = bestAsk(asks);
  return [quoteOf(b, a, last), quoteOf(complementLevel(a), complementLevel(b), last === null ? null : 1 - last)];
}

/**
 * Four-sided book (venue_6): YES and NO each publish bids and asks. Buying YES at p is selling NO
 * at 1 - p, so each outcome's best bid is the better of its own bid and the complement of the
 * other side's ask (sizes follow the level chosen). Returns [yes, no].
 */
export function binaryFromFourSided(
  yes: { bids: readonly Level[]; asks: readonly Level[] },
  no: { bids: readonly Level[]; asks: readonly Level[] },
  marks: { yes: number | null; no: number | null } = { yes: null, no: null },
): [Quote, Quote] {
  const better = (x: Level | null, y: Level | null, higher: boolean): Level | null => {
    if (!x) return y;
    if (!y) return x;
    if (x.price === y.price) return { price: x.price, size: x.size + y.size };
    return (higher ? x.price > y.price : x.price < y.price) ? x : y;
  };
  const yBid = better(bestBid(yes.bids), complementLevel(bestAsk(no.asks)), true);
  const yAsk = better(bestAsk(yes.asks), complementLevel(bestBid(no.bids)), false);
  const nBid = better(bestBid(no.bids), complementLevel(bestAsk(yes.asks)), true);
  const nAsk = better(bestAsk(no.asks), complementLevel(bestBid(yes.bids)), false);
  return [quoteOf(yBid, yAsk, null, marks.yes), quoteOf(nBid, nAsk, null, marks.no)];
}

/** An odds offer on venue_7: decimal odds (> 1) and the stake available. */
export interface OddsOffer {
  odds: number;
  stake: number;
}

/**
 * venue_7 two-selection market. The cheapest back offer (highest decimal odds, so the lowest
 * implied probability 1/odds) is that selection's ask; the opposite selection's ask gives this
 * selection's bid as its complement. Sizes are shares: stake x odds pays out `stake*odds` shares.
 */
export function quotesFromOdds(selections: readonly (readonly OddsOffer[])[]): Quote[] {
  const asks: (Level | null)[] = selections.map((offers) => {
    let best: OddsOffer | null = null;
    for (const o of offers) if (Number.isFinite(o.odds) && o.odds > 1 && o.stake > 0 && (!best || o.odds > best.odds)) best = o;
    return best ? { price: round6(1 / best.odds), size: round6(best.stake * best.odds) } : null;
  });
  return selections.map((_, i) => {
    // With two selections the opposite one is the other; with more, no complement is defined.
    const opposite = selections.length === 2 ? asks[1 - i] : null;
    return quoteOf(complementLevel(opposite), asks[i]);
  });
}
