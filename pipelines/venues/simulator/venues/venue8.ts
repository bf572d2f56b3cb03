// venue_8: kebab slugs (a market's slug is also its event id) and group slugs, probabilities on
// the record, a YES-side book, genuine zero fees, no rules text on sports, `before` cursors.
// In: the world and the clock. Out: FORMATS.md "venue_8" routes.
import type { FastifyInstance } from 'fastify';
import { type VenueId, fromEastern, h32, kebab, monthDay, round2, sha, unit } from '../core.ts';
import { intParam, page } from '../paging.ts';
import { type ProcMarket, TURNOVER_MS, procFairAt, procMarket, procStatus, openLo } from '../procedural.ts';
import { type Rendered, type SimCtx, type VenueModule, quote } from '../store.ts';
import { type GameState, type SimGame, eDate, fairAt, lineWins } from '../world.ts';

const V: VenueId = 'venue_8';
export const V8_GROUP: Record<string, string> = {
  politics: 'us-politics', crypto: 'crypto', finance: 'stock-market', economics: 'economics', weather: 'weather',
  culture: 'celebrities', technology: 'technology-default', entertainment: 'movies', other: 'fun',
};
const ZERO_FEES = { platformFee: 0, creatorFee: 0, liquidityFee: 0 };

function render(ctx: SimCtx, g: SimGame, st: GameState, t: number): Rendered[] {
  const l = g.lines.find((x) => x.kind === 'moneyline' && x.venues.includes(V));
  if (!l) return [];
  const day = eDate(g.start);
  const md = monthDay(day);
  const slug = `will-the-${kebab(g.away.nickname)}-beat-the-${kebab(g.home.nickname)}-on-${kebab(md)}${g.dh ? `-game-${g.dh}` : ''}`;
  const id = 's' + sha(ctx.seed, 'v8', g.i).toString('base64url').replace(/[-_]/g, 'x').slice(0, 19);
  const done = st.phase === 'final' || st.phase === 'cancelled';
  return [
    {
      type: 'markets',
      rec: {
        id,
        slug,
        question: `Will the ${g.away.nickname} beat the ${g.home.nickname} on ${md}?${g.dh ? ` (Game ${g.dh})` : ''}`,
        outcomeType: 'BINARY',
        probability: done ? (st.phase === 'cancelled' ? 0.5 : lineWins(g, l) ? 1 : 0) : round2(fairAt(ctx.seed, g, l, t)),
        // "placeholder times": the venue closes sports markets at 23:59 Eastern on the game day.
        closeTime: fromEastern(eDate(st.start), 23, 59),
        isResolved: done,
        resolution: done ? (st.phase === 'cancelled' ? 'CANCEL' : lineWins(g, l) ? 'YES' : 'NO') : null,
        groupSlugs: [g.league, 'sports-default'],
        volume: round2(unit('v8v', g.i) * 5000),
        volume24Hours: round2(unit('v8v24', g.i) * 500),
        totalLiquidity: Math.round(100 + unit('v8l', g.i) * 900),
        description: '',
        fees: ZERO_FEES,
        lastUpdatedTime: t - 120_000,
      },
      meta: { g, l, st },
    },
  ];
}

function procSlug(m: ProcMarket): string {
  return `${kebab(m.title).slice(0, 60).replace(/-+$/, '')}-${m.i.toString(36)}`;
}
export function procId(seed: number, i: number): string {
  return `p${i.toString(36)}x${(h32(seed, 'v8id', i) % 46656).toString(36).padStart(3, '0')}`;
}
function procIdIndex(seed: number, id: string): number | null {
  const m = /^p([0-9a-z]+)x[0-9a-z]{3}$/.exec(id);
  if (!m) return null;
  const i = parseInt(m[1], 36);
  return Number.isSafeInteger(i) && procId(seed, i) === id ? i : null;
}
function procRecord(ctx: SimCtx, i: number, t: number): Record<string, unknown> {
  const sp = ctx.proc[V];
  const m = procMarket(sp, i);
  const s = procStatus(sp, i, t);
  const win = unit('res', V, i) < m.fair;
  return {
    id: procId(ctx.seed, i),
    slug: procSlug(m),
    question: m.title,
    outcomeType: 'BINARY',
    probability: s === 'settled' ? (win ? 1 : 0) : round2(procFairAt(sp, m, t)),
    // A market that rolled out of the open window closed then, whatever close it was created with:
    // the record says so (detail reads a past closeTime as closed), as the listing does by leaving
    // it out.
    closeTime: s === 'open' ? m.closeAt : Math.min(m.closeAt, sp.epoch + (i + 1) * TURNOVER_MS),
    isResolved: s === 'settled',
    resolution: s === 'settled' ? (win ? 'YES' : 'NO') : null,
    groupSlugs: m.tagged ? [V8_GROUP[m.topic]] : [],
    volume: m.volume,
    volume24Hours: m.volume24h,
    totalLiquidity: m.liquidity,
    description: `Resolves YES if ${m.title.replace(/^Will /, '').replace(/\?$/, '')}.`,
    fees: ZERO_FEES,
    lastUpdatedTime: t - 60_000,
  };
}

export const venue8: VenueModule = {
  venue: V,
  types: ['markets'],
  keys: (_type, rec) => [String(rec.slug), String(rec.id)],
  renderGame: render,
  routes(app: FastifyInstance, ctx: SimCtx) {
    const nf = (reply: { code(n: number): { send(b: unknown): unknown } }) => reply.code(404).send({ message: 'Market not found' });
    const market = (key: string, t: number) => {
      const s = ctx.store(V).get('markets', key);
      if (s) return s;
      let i = procIdIndex(ctx.seed, key);
      if (i === null) {
        const m = /-([0-9a-z]+)$/.exec(key);
        const c = m ? parseInt(m[1], 36) : NaN;
        if (Number.isSafeInteger(c) && c < 1e9 && procSlug(procMarket(ctx.proc[V], c)) === key) i = c;
      }
      if (i === null || procStatus(ctx.proc[V], i, t) === 'unlisted') return undefined;
      return procRecord(ctx, i, t);
    };
    const openSports = () => ctx.store(V).list('markets').filter((m) => !m.isResolved && Number(m.closeTime) > ctx.clock.now() - 86400e3);
    app.get('/venue_8/v0/markets', async (req, reply) => {
      const q = req.query as Record<string, string>;
      const t = ctx.clock.now();
      const limit = intParam(q.limit, 500, 1, 1000);
      if (limit === null) return reply.code(400).send({ message: 'limit must be 1..1000' });
      const sports = openSports().filter((m) => !q.topic || (m.groupSlugs as string[]).includes(q.topic));
      let pos: { s: number } | { p: number } = { s: 0 };
      if (q.before) {
        const si = sports.findIndex((m) => m.id === q.before);
        const pi = procIdIndex(ctx.seed, q.before);
        if (si >= 0) pos = { s: si + 1 };
        else if (pi !== null) pos = { p: pi + 1 };
        else return reply.code(400).send({ message: `unknown before id ${q.before}` });
      }
      const sp = q.topic ? null : ctx.proc[V];
      return page(sports, sp, t, pos, limit, (i) => procRecord(ctx, i, t)).items;
    });
    app.get('/venue_8/v0/slug/:slug', async (req, reply) => market((req.params as { slug: string }).slug, ctx.clock.now()) ?? nf(reply));
    app.get('/venue_8/v0/market/:id', async (req, reply) => market((req.params as { id: string }).id, ctx.clock.now()) ?? nf(reply));
    app.get('/venue_8/v0/group/:slug', async (req, reply) => {
      const slug = (req.params as { slug: string }).slug.toLowerCase();
      const t = ctx.clock.now();
      const sports = ctx.store(V).list('markets').filter((m) => (m.groupSlugs as string[]).includes(slug));
      const markets: Record<string, unknown>[] = sports.slice(0, 100);
      const topic = Object.entries(V8_GROUP).find(([, s]) => s === slug)?.[0];
      if (topic) {
        // A topic group lists its first 100 open markets (a bounded scan of the open window).
        const sp = ctx.proc[V];
        const lo = openLo(sp, t);
        for (let i = lo; i < lo + sp.count && markets.length < 100 && i < lo + 5000; i++) {
          const m = procMarket(sp, i);
          if (m.tagged && m.topic === topic) markets.push(procRecord(ctx, i, t));
        }
      }
      if (!markets.length) return nf(reply);
      return { slug, name: slug.replace(/-/g, ' '), markets };
    });
    app.get('/venue_8/v0/market/:id/book', async (req, reply) => {
      const t = ctx.clock.now();
      const m = market((req.params as { id: string }).id, t);
      if (!m) return nf(reply);
      if (m.isResolved) return { yes: { bids: [], asks: [] }, ts: t };
      const q = quote(`${V}:${m.id}`, Number(m.probability), { emptyShare: 0.05 });
      return { yes: { bids: q.bid === null ? [] : [[q.bid, q.bidSize]], asks: q.ask === null ? [] : [[q.ask, q.askSize]] }, ts: t };
    });
  },
};
