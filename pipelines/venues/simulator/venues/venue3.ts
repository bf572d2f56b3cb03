// venue_3: bare numeric market ids (the same shape as venue_2's; some ids exist on both venues),
// market records carrying per-outcome tokens and quotes, a published spread threshold, per-account
// fees, page/per_page listings. In: the world and the clock. Out: FORMATS.md "venue_3" routes.
import type { FastifyInstance } from 'fastify';
import { type VenueId, fromEastern, h32, iso, round2, unit } from '../core.ts';
import { intParam, offsetPos, page } from '../paging.ts';
import { procFairAt, procMarket, procStatus } from '../procedural.ts';
import { lineRulesText } from '../rules.ts';
import { type Rendered, type SimCtx, type VenueModule, quote } from '../store.ts';
import { type GameState, type SimGame, eDate, fairAt, lineRules, lineWins } from '../world.ts';
import { placeholderStart } from '../variants.ts';

const V: VenueId = 'venue_3';
const SUB: Record<string, string> = { nba: 'Basketball / NBA', wnba: 'Basketball / WNBA', nfl: 'Football / NFL', mlb: 'Baseball / MLB', nhl: 'Hockey / NHL' };
const CAT: Record<string, string> = {
  politics: 'Politics', crypto: 'Crypto', finance: 'Markets', economics: 'Economy', weather: 'Weather',
  culture: 'Culture', technology: 'Tech', entertainment: 'Entertainment', other: 'Other',
};
const MAX_SPREAD = 0.1;

/** Procedural id: even ids every tenth market coincide with venue_2's ids (the 409 case). */
export function v3ProcId(i: number): number {
  return 1_000_000 + 2 * i + (i % 10 === 0 ? 0 : 1);
}
function v3ProcIndex(id: number): number | null {
  const x = id - 1_000_000;
  if (x < 0) return null;
  const i = Math.floor(x / 2);
  return v3ProcId(i) === id ? i : null;
}
function token(seed: number, n: number, k: number): string {
  return `3${String(h32(seed, 'v3tok', n) % 1_000_000).padStart(6, '0')}${String(2 * n + k).padStart(13, '0')}`;
}
function tokenIndex(seed: number, tok: string): { n: number; k: number } | null {
  if (!/^3\d{19}$/.test(tok)) return null;
  const x = Number(tok.slice(7));
  const n = Math.floor(x / 2);
  return token(seed, n, x % 2) === tok ? { n, k: x % 2 } : null;
}
const SPORTS_BASE = 50_000_000;

function render(ctx: SimCtx, g: SimGame, st: GameState, t: number): Rendered[] {
  const out: Rendered[] = [];
  // A few games publish a 00:00 Eastern placeholder instead of the start.
  // Doubleheaders always carry their real start: it is what tells the two games apart.
  const placeholder = !g.dh && unit('v3ph', g.i) < 0.1;
  const start = placeholder ? fromEastern(eDate(st.start), 0, 0) : st.start;
  // `wide` world: a few more print noon UTC of the day, or the day alone.
  const wide = !g.dh && !placeholder && unit('v3ph2', g.i) < ctx.world.variants.placeholder ? placeholderStart(eDate(st.start), 'v3', g.i) : undefined;
  for (const l of g.lines) {
    if (!l.venues.includes(V)) continue;
    const id = 9_500_000 + g.i * 20 + l.n;
    const n = SPORTS_BASE + g.i * 32 + l.n;
    const fair = fairAt(ctx.seed, g, l, t);
    const names = l.kind === 'moneyline' ? [g.away.name, g.home.name] : [`Over ${l.line}`, `Under ${l.line}`];
    const q = quote(`${V}:${id}`, fair, { wideShare: 0.12 });
    const done = st.phase === 'final' || st.phase === 'cancelled';
    const status = st.phase === 'scheduled' ? 'open' : st.phase === 'live' ? 'halted' : 'resolved';
    const win = lineWins(g, l);
    const title = `${g.away.name} @ ${g.home.name}`;
    const lead =
      l.kind === 'moneyline'
        ? `Resolves to the winner of ${title} on ${eDate(st.start)}.`
        : `Resolves Over if the total points scored in ${title} on ${eDate(st.start)} exceed ${l.line}.`;
    out.push({
      type: 'markets',
      rec: {
        id,
        title: l.kind === 'moneyline' ? title : `${title}: Total ${l.line}`,
        category: 'Sports',
        sub_category: SUB[g.league],
        type: l.kind,
        line: l.line ?? null,
        status,
        resolution: done ? (st.phase === 'cancelled' ? 'void' : token(ctx.seed, n, win ? 0 : 1)) : null,
        starts_at: wide ? wide.iso : iso(start),
        closes_at: iso(wide ? st.start : start),
        outcomes: names.map((name, k) => {
          const qq = k === 0 ? q : { bid: q.ask === null ? null : round2(1 - q.ask), ask: q.bid === null ? null : round2(1 - q.bid), last: round2(1 - q.last) };
          return { token: token(ctx.seed, n, k), name, best_bid: done ? null : qq.bid, best_ask: done ? null : qq.ask, last_price: qq.last };
        }),
        quote_rules: { max_spread: MAX_SPREAD },
        volume_usd: round2(1000 + unit('v3v', id) * 80000),
        volume_24h_usd: round2(100 + unit('v3v24', id) * 8000),
        liquidity_usd: round2(500 + unit('v3l', id) * 20000),
        open_interest: Math.round(unit('v3oi', id) * 30000),
        fees: { schedule: 'account', note: 'Fees depend on your account tier; sign in to see your rate.' },
        rules: lineRulesText(V, g, l, lineRules(V, g, l), lead),
        updated_at: iso(t - 60_000),
      },
      meta: { g, l, st },
    });
  }
  return out;
}

function procRecord(ctx: SimCtx, i: number, t: number): Record<string, unknown> {
  const sp = ctx.proc[V];
  const m = procMarket(sp, i);
  const s = procStatus(sp, i, t);
  const id = v3ProcId(i);
  const q = quote(`${V}:${id}`, procFairAt(sp, m, t), { wideShare: 0.12 });
  const open = s === 'open';
  return {
    id,
    title: m.title,
    category: m.tagged ? CAT[m.topic] : null,
    sub_category: null,
    type: 'binary',
    line: null,
    status: open ? 'open' : s === 'closed' ? 'closed' : 'resolved',
    resolution: s === 'settled' ? token(ctx.seed, i, unit('res', V, i) < m.fair ? 0 : 1) : null,
    starts_at: iso(m.createdAt),
    closes_at: iso(m.closeAt),
    outcomes: [
      { token: token(ctx.seed, i, 0), name: 'Yes', best_bid: open ? q.bid : null, best_ask: open ? q.ask : null, last_price: q.last },
      { token: token(ctx.seed, i, 1), name: 'No', best_bid: open && q.ask !== null ? round2(1 - q.ask) : null, best_ask: open && q.bid !== null ? round2(1 - q.bid) : null, last_price: round2(1 - q.last) },
    ],
    quote_rules: { max_spread: MAX_SPREAD },
    volume_usd: m.volume,
    volume_24h_usd: m.volume24h,
    liquidity_usd: m.liquidity,
    open_interest: m.openInterest,
    fees: { schedule: 'account', note: 'Fees depend on your account tier; sign in to see your rate.' },
    rules: `Resolves Yes if ${m.title.replace(/^Will /, '').replace(/\?$/, '')}.`,
    updated_at: iso(t - 60_000),
  };
}

export const venue3: VenueModule = {
  venue: V,
  types: ['markets'],
  keys: (_type, rec) => [String(rec.id), ...((rec.outcomes as { token: string }[] | undefined) ?? []).map((o) => o.token)],
  renderGame: render,
  routes(app: FastifyInstance, ctx: SimCtx) {
    const market = (key: string, t: number) => {
      const s = ctx.store(V).get('markets', key);
      if (s) return s;
      let i: number | null = null;
      if (/^\d{1,9}$/.test(key)) i = v3ProcIndex(+key);
      else {
        const x = tokenIndex(ctx.seed, key);
        if (x && x.n < SPORTS_BASE) i = x.n;
      }
      if (i === null || procStatus(ctx.proc[V], i, t) === 'unlisted') return undefined;
      return procRecord(ctx, i, t);
    };
    app.get('/venue_3/v1/markets', async (req, reply) => {
      const q = req.query as Record<string, string>;
      const t = ctx.clock.now();
      const pg = intParam(q.page, 1, 1, 1e7);
      const per = intParam(q.per_page, 50, 1, 250);
      if (pg === null || per === null) return reply.code(400).send({ error: { code: 'invalid_request', message: 'invalid page or per_page' } });
      const status = q.status ?? 'open';
      let ms = ctx.store(V).list('markets').filter((m) => m.status === status);
      const sport = q.sport && q.sport !== 'any' ? q.sport.toUpperCase() : null;
      if (sport) ms = ms.filter((m) => String(m.sub_category).endsWith(`/ ${sport}`));
      const sp = status === 'open' && !sport ? ctx.proc[V] : null;
      const total = ms.length + (sp ? sp.count : 0);
      const off = (pg - 1) * per;
      const pos = offsetPos(off, ms.length, sp, t);
      const res = page(ms, sp, t, pos, per, (i) => procRecord(ctx, i, t));
      return { data: res.items, meta: { page: pg, per_page: per, total, total_pages: Math.ceil(total / per) } };
    });
    app.get('/venue_3/v1/markets/:id', async (req, reply) => {
      const id = (req.params as { id: string }).id;
      if (!/^\d+$/.test(id) && !/^3\d{19}$/.test(id)) return reply.code(400).send({ error: { code: 'invalid_request', message: `invalid id ${id}` } });
      const m = market(id, ctx.clock.now());
      return m ? { data: m } : reply.code(404).send({ error: { code: 'not_found' } });
    });
  },
};
