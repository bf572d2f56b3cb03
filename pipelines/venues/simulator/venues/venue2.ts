// venue_2 (the marketplace): numeric market ids, kebab slugs, event slugs dated in UTC, condition
// ids, two long decimal outcome tokens per market, bare-array listings paged by offset, books per
// token. In: the world and the clock. Out: the HTTP routes of FORMATS.md "venue_2".
import type { FastifyInstance } from 'fastify';
import {
  type VenueId,
  decToken,
  decTokenIndex,
  eastern,
  hex64,
  hexId,
  hexIndex,
  monthDay,
  iso,
  kebab,
  round2,
  unit,
  utcDate,
} from '../core.ts';
import { intParam, offsetPos, page } from '../paging.ts';
import { procFairAt, procMarket, procStatus } from '../procedural.ts';
import { lineRulesText, propRulesText, statWords } from '../rules.ts';
import { printedPlayer, thresholdQuestion } from '../variants.ts';
import { type Rendered, type SimCtx, type VenueModule, quote } from '../store.ts';
import { type GameState, type SimGame, type SimLine, eDate, fairAt, lineRules, lineWins } from '../world.ts';

const V: VenueId = 'venue_2';
export const V2_TAG: Record<string, string> = {
  politics: 'elections', crypto: 'crypto', finance: 'stocks', economics: 'fed-rates', weather: 'weather',
  culture: 'pop-culture', technology: 'ai', entertainment: 'movies', other: 'world',
};
const SMT: Record<string, string> = { moneyline: 'moneyline', spread: 'spreads', total: 'totals', team_total: 'team_totals' };

/** venue_2 ids of sports lines: numeric, above the procedural range. */
export function v2MarketId(g: SimGame, l: SimLine): string {
  return String(9_000_000 + g.i * 20 + l.n);
}
export function v2EventSlug(g: SimGame): string {
  // Slugs carry the UTC date of the start ("a venue_2 slug whose UTC date differs from the Eastern
  // game date"); the second game of a doubleheader gets `-2`.
  return `${g.league}-${g.away.code.toLowerCase()}-${g.home.code.toLowerCase()}-${utcDate(g.start)}${g.dh === 2 ? '-2' : ''}`;
}
export function v2Tokens(seed: number, g: SimGame, l: SimLine): [string, string] {
  const k = (g.i * 32 + l.n) * 2;
  return [decToken(seed, 'v2tok-sports', k), decToken(seed, 'v2tok-sports', k + 1)];
}
/** Condition id of procedural market i (also used by the wallet plugin for positions). */
export function v2ProcConditionId(seed: number, i: number): string {
  return hexId(seed, 'v2cond', i);
}

/**
 * Event id of procedural market i. Every tenth (i % 10 == 5) equals a venue_3 market id, so a bare
 * numeric event id can exist on both venues (the event route's 409 case); the others are 3000000+i.
 */
export function v2ProcEventId(i: number): string {
  return String(i % 10 === 5 ? 1_000_000 + 2 * i + 1 : 3_000_000 + i);
}

function gst(ms: number): string {
  return new Date(ms).toISOString().replace('T', ' ').replace(/\.\d+Z$/, '+00');
}

function lineSlug(g: SimGame, l: SimLine): string {
  const ev = v2EventSlug(g);
  const pt = (x: number) => String(Math.abs(x)).replace('.', 'pt');
  switch (l.kind) {
    case 'moneyline':
      return ev;
    case 'spread':
      return `${ev}-spread-${l.team === g.home.code ? 'home' : 'away'}-${pt(l.line!)}`;
    case 'total':
      return `${ev}-${l.segment === 'half:1' ? '1h-' : ''}total-${pt(l.line!)}`;
    case 'team_total':
      return `${ev}-team-total-${l.team!.toLowerCase()}-${pt(l.line!)}`;
    default:
      return `${ev}-${kebab(l.player!.name)}-${l.stat!.replace('_', '-')}-${pt(l.line!)}`;
  }
}

function render(ctx: SimCtx, g: SimGame, st: GameState, t: number): Rendered[] {
  const out: Rendered[] = [];
  const A = g.away.nickname;
  const H = g.home.nickname;
  const evId = String(71_000 + g.i);
  const evSlug = v2EventSlug(g);
  const e = eastern(st.start);
  const when = `${monthDay(eDate(st.start), true)} at ${e.h % 12 || 12}:${String(e.mi).padStart(2, '0')} ${e.h < 12 ? 'AM' : 'PM'} ET`;
  const L = g.league.toUpperCase();
  const closed = st.phase === 'final' || st.phase === 'cancelled';
  const marketIds: string[] = [];
  for (const l of g.lines) {
    if (!l.venues.includes(V)) continue;
    const id = v2MarketId(g, l);
    marketIds.push(id);
    const subj = l.team === g.away.code ? g.away : g.home;
    const other = subj === g.away ? g.home : g.away;
    let question: string;
    let outcomes: string[];
    let lead: string;
    let smt = SMT[l.kind] ?? l.stat!;
    switch (l.kind) {
      case 'moneyline':
        question = `${A} vs. ${H}`;
        outcomes = [A, H];
        lead = `In the upcoming ${L} game, scheduled for ${when}: If the ${g.away.name} win, the market will resolve to "${A}". If the ${g.home.name} win, the market will resolve to "${H}".`;
        break;
      case 'spread':
        question = `Spread: ${subj.nickname} (${l.line})`;
        outcomes = [subj.nickname, other.nickname];
        lead = `In the upcoming ${L} game, scheduled for ${when}: this market resolves to "${subj.nickname}" if the ${subj.name} win by more than ${Math.abs(l.line!)} points; otherwise "${other.nickname}".`;
        break;
      case 'total':
        if (l.segment === 'half:1') smt = 'first_half_totals';
        question = `${A} vs. ${H}: ${l.segment === 'half:1' ? '1H ' : ''}O/U ${l.line}`;
        outcomes = ['Over', 'Under'];
        lead = `In the upcoming ${L} game, scheduled for ${when}: "Over" if the combined score${l.segment === 'half:1' ? ' of the first half' : ''} is greater than ${l.line}, otherwise "Under".`;
        break;
      case 'team_total':
        question = `${subj.nickname} Team Total: O/U ${l.line}`;
        outcomes = ['Over', 'Under'];
        lead = `In the upcoming ${L} game, scheduled for ${when}: "Over" if the ${subj.name} score more than ${l.line} points, otherwise "Under".`;
        break;
      default: {
        // `wide` world: initials, and the yes/no threshold questions (`25+`, `at least 25`).
        const who = printedPlayer(ctx.world, g, l.player!, 'v2', g.i, l.n);
        if (unit('v2thq', g.i, l.n) < ctx.world.variants.thresholdWords) {
          question = thresholdQuestion(who, statWords(l.stat!), l.line!, 'v2', g.i, l.n);
          outcomes = ['Yes', 'No'];
        } else {
          question = `${who}: ${statWords(l.stat!).replace(/^\w/, (c) => c.toUpperCase())} O/U ${l.line}`;
          outcomes = ['Over', 'Under'];
        }
        lead = `In the upcoming ${L} game, ${A} vs. ${H}, scheduled for ${when}: "${outcomes[0]}" if ${l.player!.name} records more than ${l.line} ${statWords(l.stat!)}, otherwise "${outcomes[1]}".`;
      }
    }
    const text = l.kind === 'player_prop' ? propRulesText(V, g, l, lead) : lineRulesText(V, g, l, lineRules(V, g, l), lead);
    const fair = fairAt(ctx.seed, g, l, t);
    const q = quote(`${V}:${id}`, fair);
    const cancelled = st.phase === 'cancelled';
    const win = lineWins(g, l);
    const prices = cancelled ? ['0.5', '0.5'] : closed ? (win ? ['1', '0'] : ['0', '1']) : [String(round2(fair)), String(round2(1 - fair))];
    const tokens = v2Tokens(ctx.seed, g, l);
    const vol = 500 + (unit('v2vol', g.i, l.n) * 200000);
    const fees = l.kind === 'moneyline' ? { feesEnabled: false, takerBaseFee: 0, makerBaseFee: 0 } : { feesEnabled: true, takerBaseFee: 200, makerBaseFee: 0 };
    out.push({
      type: 'markets',
      rec: {
        id,
        question,
        conditionId: hex64(ctx.seed, 'v2cond-sports', g.i, l.n),
        slug: lineSlug(g, l),
        startDate: iso(g.start - 7 * 86400e3),
        endDate: iso(st.start + 7 * 86400e3),
        gameStartTime: gst(st.start),
        description: text,
        outcomes: JSON.stringify(outcomes),
        outcomePrices: JSON.stringify(prices),
        clobTokenIds: JSON.stringify(tokens),
        volume: vol.toFixed(2),
        volumeNum: round2(vol),
        volume24hr: round2(vol / 9),
        liquidityNum: round2(vol / 4),
        active: true,
        closed,
        acceptingOrders: !closed,
        bestBid: closed ? null : q.bid,
        bestAsk: closed ? null : q.ask,
        lastTradePrice: q.last,
        spread: q.bid !== null && q.ask !== null ? round2(q.ask - q.bid) : null,
        sportsMarketType: smt,
        line: l.line ?? null,
        negRisk: false,
        umaResolutionStatus: closed ? 'resolved' : null,
        ...fees,
        tags: [{ slug: 'sports' }, { slug: g.league }],
        events: [{ id: evId, slug: evSlug, title: `${A} vs. ${H}` }],
      },
      meta: { g, l, st, extra: tokens },
    });
  }
  out.push({
    type: 'events',
    rec: {
      id: evId,
      slug: evSlug,
      title: `${A} vs. ${H}`,
      startDate: iso(g.start - 7 * 86400e3),
      endDate: iso(st.start + 7 * 86400e3),
      startTime: iso(st.start),
      active: true,
      closed,
      tags: [{ slug: 'sports' }, { slug: g.league }],
      marketIds,
    },
    meta: { g, st },
  });
  return out;
}

function procRecord(ctx: SimCtx, i: number, t: number): Record<string, unknown> {
  const sp = ctx.proc[V];
  const m = procMarket(sp, i);
  const s = procStatus(sp, i, t);
  const fair = procFairAt(sp, m, t);
  const id = String(1_000_000 + 2 * i);
  const q = quote(`${V}:${id}`, fair);
  const closed = s === 'closed' || s === 'settled';
  const slug = `${kebab(m.title).slice(0, 70).replace(/-+$/, '')}-${i.toString(36)}`;
  const win = unit('res', V, i) < m.fair;
  return {
    id,
    question: m.title,
    conditionId: v2ProcConditionId(ctx.seed, i),
    slug,
    startDate: iso(m.createdAt),
    endDate: iso(m.closeAt),
    description: `This market will resolve to "Yes" if ${m.title.replace(/^Will /, '').replace(/\?$/, '')}. Otherwise "No".`,
    outcomes: '["Yes","No"]',
    outcomePrices: JSON.stringify(s === 'settled' ? (win ? ['1', '0'] : ['0', '1']) : [String(round2(fair)), String(round2(1 - fair))]),
    clobTokenIds: JSON.stringify([decToken(ctx.seed, 'v2tok', 2 * i), decToken(ctx.seed, 'v2tok', 2 * i + 1)]),
    volume: m.volume.toFixed(2),
    volumeNum: m.volume,
    volume24hr: m.volume24h,
    liquidityNum: m.liquidity,
    active: true,
    closed,
    acceptingOrders: !closed,
    bestBid: closed ? null : q.bid,
    bestAsk: closed ? null : q.ask,
    lastTradePrice: q.last,
    spread: q.bid !== null && q.ask !== null ? round2(q.ask - q.bid) : null,
    negRisk: false,
    umaResolutionStatus: s === 'settled' ? 'resolved' : null,
    feesEnabled: false,
    takerBaseFee: 0,
    makerBaseFee: 0,
    tags: m.tagged ? [{ slug: V2_TAG[m.topic] }] : [],
    events: [{ id: v2ProcEventId(i), slug, title: m.title }],
  };
}

/** Procedural index from any venue_2 id form (numeric id, slug, condition id, token, event id/slug). */
function procLookup(ctx: SimCtx, key: string, kind: 'market' | 'event'): number | null {
  const sp = ctx.proc[V];
  let i: number | null = null;
  if (/^\d{1,9}$/.test(key)) {
    const n = +key;
    if (kind === 'market' && n >= 1_000_000 && n < 3_000_000 && n % 2 === 0) i = (n - 1_000_000) / 2;
    if (kind === 'event' && n >= 3_000_000 && n < 9_000_000) i = n - 3_000_000;
    if (kind === 'event' && n >= 1_000_000 && n < 3_000_000 && n % 2 === 1) i = (n - 1_000_001) / 2;
    if (kind === 'event' && i !== null && v2ProcEventId(i) !== key) i = null;
  } else if (kind === 'market' && key.startsWith('0x')) i = hexIndex(ctx.seed, 'v2cond', key.toLowerCase());
  else if (kind === 'market' && /^\d{20,}$/.test(key)) {
    const x = decTokenIndex(ctx.seed, 'v2tok', key);
    i = x === null ? null : Math.floor(x / 2);
  } else {
    const m = /-([0-9a-z]+)$/.exec(key);
    if (m) {
      const c = parseInt(m[1], 36);
      if (Number.isSafeInteger(c) && c < 1e9) {
        const rec = procMarket(sp, c);
        if (`${kebab(rec.title).slice(0, 70).replace(/-+$/, '')}-${c.toString(36)}` === key) i = c;
      }
    }
  }
  return i;
}

export const venue2: VenueModule = {
  venue: V,
  types: ['markets', 'events'],
  keys(type, rec) {
    if (type === 'events') return [String(rec.id), String(rec.slug)];
    const keys = [String(rec.id), String(rec.slug), String(rec.conditionId)];
    try {
      keys.push(...(JSON.parse(String(rec.clobTokenIds)) as string[]));
    } catch {
      /* a scenario record without tokens */
    }
    return keys;
  },
  renderGame: render,
  routes(app: FastifyInstance, ctx: SimCtx) {
    const nf = (reply: { code(n: number): { send(b: unknown): unknown } }, what: string) => reply.code(404).send({ error: `${what} not found` });
    const market = (key: string, t: number) => {
      const s = ctx.store(V).get('markets', key);
      if (s) return s;
      const i = procLookup(ctx, key, 'market');
      if (i === null || procStatus(ctx.proc[V], i, t) === 'unlisted') return undefined;
      return procRecord(ctx, i, t);
    };
    const eventOf = (key: string, t: number) => {
      const st = ctx.store(V);
      const e = st.get('events', key);
      if (e) {
        const { marketIds, ...rest } = e as Record<string, unknown> & { marketIds?: string[] };
        return { ...rest, markets: (marketIds ?? []).map((id) => st.get('markets', id)).filter(Boolean) };
      }
      const i = procLookup(ctx, key, 'event') ?? (/^\d+$/.test(key) ? null : procLookup(ctx, key, 'market'));
      if (i === null || procStatus(ctx.proc[V], i, t) === 'unlisted') return undefined;
      const m = procRecord(ctx, i, t);
      const ev = (m.events as Record<string, unknown>[])[0];
      return { ...ev, active: true, closed: m.closed, tags: m.tags, markets: [m] };
    };
    app.get('/venue_2/markets', async (req, reply) => {
      const q = req.query as Record<string, string>;
      const t = ctx.clock.now();
      if (q.condition_ids || q.slug || q.id) {
        const keys = String(q.condition_ids ?? q.slug ?? q.id).split(',');
        return keys.map((k) => market(k.trim(), t)).filter(Boolean);
      }
      const limit = intParam(q.limit, 100, 1, 500);
      const offset = intParam(q.offset, 0, 0, 1e9);
      if (limit === null || offset === null) return reply.code(400).send({ error: 'invalid limit or offset' });
      const closed = q.closed === 'true';
      let ms = ctx.store(V).list('markets').filter((m) => Boolean(m.closed) === closed);
      if (q.tag_slug) ms = ms.filter((m) => (m.tags as { slug: string }[]).some((x) => x.slug === q.tag_slug));
      const sp = closed || q.tag_slug ? null : ctx.proc[V];
      return page(ms, sp, t, offsetPos(offset, ms.length, sp, t), limit, (i) => procRecord(ctx, i, t)).items;
    });
    app.get('/venue_2/markets/slug/:slug', async (req, reply) => market((req.params as { slug: string }).slug, ctx.clock.now()) ?? nf(reply, 'market'));
    app.get('/venue_2/markets/:id', async (req, reply) => {
      const id = (req.params as { id: string }).id;
      if (!/^\d+$/.test(id)) return reply.code(400).send({ error: `invalid market id ${JSON.stringify(id)}` });
      return market(id, ctx.clock.now()) ?? nf(reply, 'market');
    });
    app.get('/venue_2/events', async (req, reply) => {
      const q = req.query as Record<string, string>;
      const t = ctx.clock.now();
      const limit = intParam(q.limit, 100, 1, 500);
      const offset = intParam(q.offset, 0, 0, 1e9);
      if (limit === null || offset === null) return reply.code(400).send({ error: 'invalid limit or offset' });
      const closed = q.closed === 'true';
      let evs = ctx.store(V).list('events').filter((e) => Boolean(e.closed) === closed);
      if (q.tag_slug) evs = evs.filter((e) => (e.tags as { slug: string }[]).some((x) => x.slug === q.tag_slug));
      const sp = closed || q.tag_slug ? null : ctx.proc[V];
      const res = page(evs, sp, t, offsetPos(offset, evs.length, sp, t), limit, (i) => ({ id: v2ProcEventId(i) }));
      return res.items.map((e) => eventOf(String((e as { id: string }).id), t));
    });
    app.get('/venue_2/events/slug/:slug', async (req, reply) => eventOf((req.params as { slug: string }).slug, ctx.clock.now()) ?? nf(reply, 'event'));
    app.get('/venue_2/events/:id', async (req, reply) => eventOf((req.params as { id: string }).id, ctx.clock.now()) ?? nf(reply, 'event'));
    app.get('/venue_2/book', async (req, reply) => {
      const tok = String((req.query as Record<string, string>).token_id ?? '');
      const t = ctx.clock.now();
      const m = market(tok, t);
      if (!m) return reply.code(404).send({ error: 'No orderbook exists for the requested token id' });
      const toks = JSON.parse(String(m.clobTokenIds)) as string[];
      const k = toks.indexOf(tok);
      if (m.closed) return { market: m.conditionId, asset_id: tok, bids: [], asks: [], timestamp: String(t) };
      const meta = ctx.store(V).metaOf(m);
      const p0 = Number(JSON.parse(String(m.outcomePrices))[0]);
      const p = meta?.g && meta.l ? fairAt(ctx.seed, meta.g, meta.l, t) : p0;
      const q = quote(`${V}:${m.id}`, k === 0 ? p : 1 - p);
      const lvl = (price: number | null, size: number | null) => (price === null ? [] : [{ price: price.toFixed(2), size: String(size) }]);
      return { market: m.conditionId, asset_id: tok, bids: lvl(q.bid, q.bidSize), asks: lvl(q.ask, q.askSize), timestamp: String(t) };
    });
  },
};
