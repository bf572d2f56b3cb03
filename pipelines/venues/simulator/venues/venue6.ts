// venue_6: ULID ids, multi-choice events, four-sided books, game lines that mirror venue_2
// markets and reuse their outcome tokens, per-account fees, page_token listings. In: the world and
// the clock. Out: FORMATS.md "venue_6" routes.
import type { FastifyInstance } from 'fastify';
import { type VenueId, iso, round2, ulidId, ulidIndex, unit } from '../core.ts';
import { decodePos, encodePos, intParam, page } from '../paging.ts';
import { GROUP_SIZE, procFairAt, procMarket, procStatus } from '../procedural.ts';
import { lineRulesText } from '../rules.ts';
import { type Rendered, type SimCtx, type VenueModule, quote } from '../store.ts';
import { type GameState, type SimGame, fairAt, lineRules, lineWins } from '../world.ts';
import { v2MarketId, v2Tokens } from './venue2.ts';
import { altCode } from '../variants.ts';

const V: VenueId = 'venue_6';
const CAT: Record<string, string> = {
  politics: 'politics', crypto: 'digital-assets', finance: 'markets', economics: 'macro', weather: 'climate',
  culture: 'culture', technology: 'tech', entertainment: 'entertainment', other: 'misc',
};
const SPORTS_BASE = 50_000_000;
const G = GROUP_SIZE[V];

function render(ctx: SimCtx, g: SimGame, st: GameState, t: number): Rendered[] {
  const out: Rendered[] = [];
  const born = g.start - 7 * 86400e3;
  const eventId = ulidId(ctx.seed, 'v6e', SPORTS_BASE + g.i, born);
  const ids: string[] = [];
  // `wide` world: some games carry an alternate code in the parentheses ("Jaguars (JAC)").
  const alt = unit('v6alt', g.i) < ctx.world.variants.altCodes;
  const lab = (tm: SimGame['away']) => `${tm.nickname} (${alt ? altCode(tm, 'v6', g.i) : tm.code})`;
  for (const l of g.lines) {
    // Game lines mirror venue_2: only lines venue_2 lists too.
    if (!l.venues.includes(V) || !l.venues.includes('venue_2')) continue;
    const id = ulidId(ctx.seed, 'v6m', SPORTS_BASE + g.i * 32 + l.n, born);
    ids.push(id);
    const subj = l.team === g.away.code ? g.away : g.home;
    const other = subj === g.away ? g.home : g.away;
    const tokens = v2Tokens(ctx.seed, g, l);
    const labels =
      l.kind === 'moneyline' ? [lab(g.away), lab(g.home)] : l.kind === 'spread' ? [`${lab(subj)} ${l.line}`, `${lab(other)} +${-l.line!}`] : [`Over ${l.line}`, `Under ${l.line}`];
    const question =
      l.kind === 'moneyline'
        ? `${lab(g.away)} vs ${lab(g.home)}: winner`
        : l.kind === 'spread'
          ? `${lab(g.away)} vs ${lab(g.home)}: spread ${lab(subj)} ${l.line}`
          : `${lab(g.away)} vs ${lab(g.home)}: total ${l.line}`;
    const done = st.phase === 'final' || st.phase === 'cancelled';
    const fair = fairAt(ctx.seed, g, l, t);
    out.push({
      type: 'markets',
      rec: {
        id,
        event_id: eventId,
        title: `${g.away.code} @ ${g.home.code}`,
        question,
        kind: 'game_line',
        line_type: l.kind,
        line: l.line ?? null,
        outcomes: labels.map((label, k) => ({ token: tokens[k], label })),
        mirror: { venue: 'venue_2', market_id: v2MarketId(g, l) },
        mark: done ? (st.phase === 'cancelled' ? 0.5 : lineWins(g, l) ? 1 : 0) : round2(fair),
        mark_ts: iso(t - 30_000),
        status: st.phase === 'scheduled' ? 'open' : st.phase === 'live' ? 'suspended' : 'settled',
        starts_at: iso(st.start),
        category: 'sports',
        league: g.league.toUpperCase(),
        volume: round2(unit('v6v', g.i, l.n) * 30000),
        fee_info: { type: 'per_account' },
        rules_url: 'https://venue6.example/rules/game-lines',
        rules: lineRulesText(V, g, l, lineRules(V, g, l), `Mirrors the venue_2 market ${v2MarketId(g, l)}.`),
      },
      meta: { g, l, st },
    });
  }
  out.push({ type: 'events', rec: { id: eventId, title: `${g.away.code} @ ${g.home.code}`, type: 'game', category: 'sports', starts_at: iso(st.start), market_ids: ids }, meta: { g, st } });
  return out;
}

/** About a third of the groups are three separate binary markets, each its own single-market event. */
const BINARY_BASE = 40_000_000;
function binaryGroup(ctx: SimCtx, group: number): boolean {
  return unit(ctx.seed, 'v6bin', group) < 0.35;
}

function procTime(ctx: SimCtx, i: number): number {
  return procMarket(ctx.proc[V], i).createdAt;
}
function procRecord(ctx: SimCtx, i: number, t: number): Record<string, unknown> {
  const sp = ctx.proc[V];
  const m = procMarket(sp, i);
  const s = procStatus(sp, i, t);
  const id = ulidId(ctx.seed, 'v6m', i, m.createdAt);
  const first = procMarket(sp, m.group * G);
  return {
    id,
    event_id: binaryGroup(ctx, m.group) ? ulidId(ctx.seed, 'v6e', BINARY_BASE + i, m.createdAt) : ulidId(ctx.seed, 'v6e', m.group, first.createdAt),
    title: m.groupTitle,
    question: m.title,
    kind: binaryGroup(ctx, m.group) ? 'binary' : 'option',
    line_type: null,
    line: null,
    outcomes: [{ token: `6${String(i).padStart(12, '0')}1`, label: 'Yes' }, { token: `6${String(i).padStart(12, '0')}2`, label: 'No' }],
    mark: round2(procFairAt(sp, m, t)),
    mark_ts: iso(t - 30_000),
    status: s === 'open' ? 'open' : s === 'closed' ? 'closed' : 'settled',
    starts_at: iso(m.createdAt),
    category: m.tagged ? CAT[m.topic] : null,
    volume: m.volume,
    fee_info: { type: 'per_account' },
    rules_url: 'https://venue6.example/rules/markets',
    rules: `Resolves Yes if ${m.title.replace(/^Will /, '').replace(/\?$/, '')}.`,
  };
}

export const venue6: VenueModule = {
  venue: V,
  types: ['markets', 'events'],
  keys: (_type, rec) => [String(rec.id)],
  renderGame: render,
  routes(app: FastifyInstance, ctx: SimCtx) {
    const nf = (reply: { code(n: number): { send(b: unknown): unknown } }) => reply.code(404).send({ error: { code: 'NOT_FOUND', message: 'not found' } });
    const market = (id: string, t: number) => {
      const s = ctx.store(V).get('markets', id);
      if (s) return s;
      const i = ulidIndex(ctx.seed, 'v6m', id.toUpperCase(), (j) => (j >= SPORTS_BASE ? 0 : procTime(ctx, j)));
      if (i === null || i >= SPORTS_BASE || procStatus(ctx.proc[V], i, t) === 'unlisted') return undefined;
      return procRecord(ctx, i, t);
    };
    const event = (id: string, t: number) => {
      const st = ctx.store(V);
      const e = st.get('events', id);
      if (e) {
        const { market_ids, ...rest } = e as Record<string, unknown> & { market_ids: string[] };
        return { ...rest, markets: market_ids.map((m) => st.get('markets', m)).filter(Boolean) };
      }
      const x = ulidIndex(ctx.seed, 'v6e', id.toUpperCase(), (j) => (j >= SPORTS_BASE ? 0 : j >= BINARY_BASE ? procTime(ctx, j - BINARY_BASE) : procTime(ctx, j * G)));
      if (x === null || x >= SPORTS_BASE) return undefined;
      if (x >= BINARY_BASE) {
        const i = x - BINARY_BASE;
        if (!binaryGroup(ctx, Math.floor(i / G)) || procStatus(ctx.proc[V], i, t) === 'unlisted') return undefined;
        const m = procRecord(ctx, i, t);
        return { id: m.event_id, title: m.question, type: 'binary', category: m.category, markets: [m] };
      }
      if (binaryGroup(ctx, x)) return undefined;
      const ms = [];
      for (let j = 0; j < G; j++) if (procStatus(ctx.proc[V], x * G + j, t) !== 'unlisted') ms.push(procRecord(ctx, x * G + j, t));
      if (!ms.length) return undefined;
      const head = ms[0];
      return { id: head.event_id, title: head.title, type: 'multi', category: head.category, markets: ms };
    };
    app.get('/venue_6/api/markets', async (req, reply) => {
      const q = req.query as Record<string, string>;
      const t = ctx.clock.now();
      const size = intParam(q.page_size, 100, 1, 200);
      const pos = decodePos(q.page_token);
      if (size === null || !pos) return reply.code(400).send({ error: { code: 'INVALID_ARGUMENT', message: 'bad page_size or page_token' } });
      const status = q.status ?? 'open';
      let ms = ctx.store(V).list('markets').filter((m) => m.status === status);
      if (q.category) ms = ms.filter((m) => m.category === q.category);
      const sp = status === 'open' && (!q.category || q.category !== 'sports') ? ctx.proc[V] : null;
      const res = page(ms, sp, t, pos, size, (i) => procRecord(ctx, i, t));
      let items = res.items as Record<string, unknown>[];
      if (q.category && sp) items = items.filter((m) => m.category === q.category);
      return { items, next_page_token: res.next ? encodePos(res.next) : null };
    });
    app.get('/venue_6/api/markets/:id', async (req, reply) => market((req.params as { id: string }).id, ctx.clock.now()) ?? nf(reply));
    app.get('/venue_6/api/events/:id', async (req, reply) => event((req.params as { id: string }).id, ctx.clock.now()) ?? nf(reply));
    app.get('/venue_6/api/markets/:id/book', async (req, reply) => {
      const t = ctx.clock.now();
      const m = market((req.params as { id: string }).id, t);
      if (!m) return nf(reply);
      const empty = { bids: [], asks: [] };
      if (m.status !== 'open') return { yes: empty, no: empty, mark: m.mark, ts: iso(t) };
      // Some books are empty while the mark survives ("a price mark that outlives an empty book").
      const q = quote(`${V}:${m.id}`, Number(m.mark), { emptyShare: 0.08 });
      const lv = (p: number | null, s: number | null) => (p === null ? [] : [{ p, q: s }]);
      return {
        yes: { bids: lv(q.bid, q.bidSize), asks: lv(q.ask, q.askSize) },
        no: { bids: lv(q.ask === null ? null : round2(1 - q.ask), q.askSize), asks: lv(q.bid === null ? null : round2(1 - q.bid), q.bidSize) },
        mark: m.mark,
        ts: iso(t),
      };
    });
  },
};
