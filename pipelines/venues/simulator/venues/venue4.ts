// venue_4: market hashes (0x + 64 hex), `L`+digits fixtures that exist only while the game
// trades, outcomeOne/outcomeTwo markets named by their two outcomes, books per outcome, published
// fees on a metadata endpoint, pageSize/paginationKey listings. In: the world and the clock.
// Out: FORMATS.md "venue_4" routes.
import type { FastifyInstance } from 'fastify';
import { type VenueId, hexId, hexIndex, round2, unit } from '../core.ts';
import { decodePos, encodePos, intParam, page } from '../paging.ts';
import { procFairAt, procMarket, procStatus } from '../procedural.ts';
import { lineRulesText } from '../rules.ts';
import { type Rendered, type SimCtx, type VenueModule, quote } from '../store.ts';
import { type GameState, type SimGame, type SimLine, eDate, fairAt, lineRules, lineWins } from '../world.ts';
import { codedName, placeholderStart } from '../variants.ts';

const V: VenueId = 'venue_4';
const SPORT: Record<string, string> = { nba: 'Basketball', wnba: 'Basketball', nfl: 'Football', mlb: 'Baseball', nhl: 'Hockey' };
const LABEL: Record<string, string> = {
  politics: 'Politics', crypto: 'Crypto', finance: 'Finance', economics: 'Economy', weather: 'Weather',
  culture: 'Culture', technology: 'Technology', entertainment: 'Entertainment', other: 'Novelty',
};
const SPORTS_BASE = 50_000_000;

export function v4Fixture(g: SimGame): string {
  return `L${7_731_000 + g.i}`;
}
function typeOf(l: SimLine): string {
  if (l.kind === 'moneyline') return 'MONEYLINE';
  if (l.kind === 'spread') return l.segment === 'half:2' ? 'SECOND_HALF_SPREAD' : 'SPREAD';
  return 'OVER_UNDER';
}
function signed(x: number): string {
  return x > 0 ? `+${x}` : String(x);
}

function render(ctx: SimCtx, g: SimGame, st: GameState, t: number): Rendered[] {
  const out: Rendered[] = [];
  const fixture = v4Fixture(g);
  const hashes: string[] = [];
  // `wide` world: some games name teams with a code before or after ("JAX Jaguars", "Jaguars JAC")
  // and carry a placeholder start (noon UTC of the day; never on a doubleheader).
  const mix = ctx.world.variants;
  const coded = unit('v4code', g.i) < mix.codePosition;
  const nameOf = (tm: SimGame['away']) => (coded ? codedName(tm, 'v4', g.i) : tm.name);
  const gameTime = !g.dh && unit('v4ph', g.i) < mix.placeholder ? placeholderStart(eDate(st.start), 'v4', g.i).ms : st.start;
  for (const l of g.lines) {
    if (!l.venues.includes(V)) continue;
    const hash = hexId(ctx.seed, 'v4m', SPORTS_BASE + g.i * 32 + l.n);
    hashes.push(hash);
    const subj = l.team === g.away.code ? g.away : g.home;
    const other = subj === g.away ? g.home : g.away;
    const [o1, o2] =
      l.kind === 'moneyline'
        ? [nameOf(g.away), nameOf(g.home)]
        : l.kind === 'spread'
          ? [`${nameOf(subj)} ${signed(l.line!)}`, `${nameOf(other)} ${signed(-l.line!)}`]
          : [`Over ${l.line}`, `Under ${l.line}`];
    const done = st.phase === 'final' || st.phase === 'cancelled';
    const lead = `Market on ${g.away.name} vs ${g.home.name} (${eDate(st.start)}): ${o1} or ${o2}.`;
    out.push({
      type: 'markets',
      rec: {
        marketHash: hash,
        sportXeventId: fixture,
        status: done ? 'SETTLED' : 'ACTIVE',
        ...(done ? { outcome: st.phase === 'cancelled' ? 0 : lineWins(g, l) ? 1 : 2 } : {}),
        type: typeOf(l),
        line: l.kind === 'moneyline' ? null : l.line,
        outcomeOneName: o1,
        outcomeTwoName: o2,
        teamOneName: nameOf(g.away),
        teamTwoName: nameOf(g.home),
        sportLabel: SPORT[g.league],
        leagueLabel: g.league.toUpperCase(),
        gameTime: Math.floor(gameTime / 1000),
        liveEnabled: true,
        mainLine: !l.alt,
        rules: lineRulesText(V, g, l, lineRules(V, g, l), lead),
        volume: round2(unit('v4v', g.i, l.n) * 90000),
      },
      meta: { g, l, st },
    });
  }
  // "venue_4 fixtures resolve only while trading": a finished game has no fixture.
  if (st.phase === 'scheduled' || st.phase === 'live') {
    out.push({
      type: 'fixtures',
      rec: { eventId: fixture, teamOne: nameOf(g.away), teamTwo: nameOf(g.home), gameTime: Math.floor(gameTime / 1000), leagueLabel: g.league.toUpperCase(), sportLabel: SPORT[g.league], markets: hashes },
      meta: { g, st },
    });
  }
  void t;
  return out;
}

function procRecord(ctx: SimCtx, i: number, t: number): Record<string, unknown> {
  const sp = ctx.proc[V];
  const m = procMarket(sp, i);
  const s = procStatus(sp, i, t);
  return {
    marketHash: hexId(ctx.seed, 'v4m', i),
    sportXeventId: `L${8_000_000 + i}`,
    status: s === 'open' ? 'ACTIVE' : s === 'closed' ? 'INACTIVE' : 'SETTLED',
    ...(s === 'settled' ? { outcome: unit('res', V, i) < m.fair ? 1 : 2 } : {}),
    type: 'BINARY',
    line: null,
    outcomeOneName: `Yes: ${m.optionLabel}`,
    outcomeTwoName: `No: ${m.optionLabel}`,
    teamOneName: m.title,
    teamTwoName: '',
    sportLabel: m.tagged ? LABEL[m.topic] : null,
    leagueLabel: null,
    gameTime: Math.floor(m.closeAt / 1000),
    liveEnabled: false,
    mainLine: true,
    rules: `Resolves to outcome one if ${m.title.replace(/^Will /, '').replace(/\?$/, '')}.`,
    volume: m.volume,
  };
}

export const venue4: VenueModule = {
  venue: V,
  types: ['markets', 'fixtures'],
  keys: (type, rec) => [String(type === 'markets' ? rec.marketHash : rec.eventId)],
  renderGame: render,
  routes(app: FastifyInstance, ctx: SimCtx) {
    const fail = (reply: { code(n: number): { send(b: unknown): unknown } }, code: number, errorCode: string) => reply.code(code).send({ status: 'failure', errorCode });
    const market = (hash: string, t: number) => {
      const s = ctx.store(V).get('markets', hash);
      if (s) return s;
      const i = hexIndex(ctx.seed, 'v4m', hash.toLowerCase());
      if (i === null || i >= SPORTS_BASE || procStatus(ctx.proc[V], i, t) === 'unlisted') return undefined;
      return procRecord(ctx, i, t);
    };
    app.get('/venue_4/markets/active', async (req, reply) => {
      const q = req.query as Record<string, string>;
      const t = ctx.clock.now();
      const size = intParam(q.pageSize, 100, 1, 300);
      const pos = decodePos(q.paginationKey);
      if (size === null || !pos) return fail(reply, 400, 'BAD_PAGINATION');
      let ms = ctx.store(V).list('markets').filter((m) => m.status === 'ACTIVE');
      if (q.sportIds) ms = ms.filter((m) => q.sportIds.split(',').includes(String(m.sportLabel)));
      if (q.leagueIds) ms = ms.filter((m) => q.leagueIds.split(',').includes(String(m.leagueLabel)));
      const sp = q.sportIds || q.leagueIds ? null : ctx.proc[V];
      const res = page(ms, sp, t, pos, size, (i) => procRecord(ctx, i, t));
      return { status: 'success', data: { markets: res.items, ...(res.next ? { nextKey: encodePos(res.next) } : {}) } };
    });
    app.get('/venue_4/markets/find', async (req, reply) => {
      const hs = String((req.query as Record<string, string>).marketHashes ?? '').split(',').filter(Boolean);
      if (!hs.length || hs.some((h) => !/^0x[0-9a-fA-F]{64}$/.test(h))) return fail(reply, 400, 'BAD_MARKET_HASHES');
      const t = ctx.clock.now();
      return { status: 'success', data: hs.map((h) => market(h, t)).filter(Boolean) };
    });
    app.get('/venue_4/fixture/:id', async (req, reply) => {
      const id = (req.params as { id: string }).id;
      if (!/^L\d+$/i.test(id)) return fail(reply, 400, 'BAD_EVENT_ID');
      const f = ctx.store(V).get('fixtures', id.toUpperCase());
      return f ? { status: 'success', data: f } : fail(reply, 404, 'EVENT_NOT_FOUND');
    });
    app.get('/venue_4/orders/book', async (req, reply) => {
      const hash = String((req.query as Record<string, string>).marketHash ?? '');
      const t = ctx.clock.now();
      const m = market(hash, t);
      if (!m) return fail(reply, 404, 'MARKET_NOT_FOUND');
      const side = (p: number | null, key: string) => {
        if (m.status !== 'ACTIVE' || p === null) return { bestBid: null, bestAsk: null, bidSize: null, askSize: null };
        const q = quote(key, p, { emptyShare: 0.05 });
        return { bestBid: q.bid, bestAsk: q.ask, bidSize: q.bidSize, askSize: q.askSize };
      };
      const meta = ctx.store(V).metaOf(m);
      let p: number;
      if (meta?.g && meta.l) p = fairAt(ctx.seed, meta.g, meta.l, t);
      else {
        const i = hexIndex(ctx.seed, 'v4m', hash.toLowerCase());
        p = i === null ? 0.5 : procFairAt(ctx.proc[V], procMarket(ctx.proc[V], i), t);
      }
      return { status: 'success', data: { outcomeOne: side(p, `${hash}:1`), outcomeTwo: side(round2(1 - p), `${hash}:2`), updatedAt: Math.floor(t / 1000) } };
    });
    app.get('/venue_4/metadata', async () => ({ status: 'success', data: { makerFeeBps: 0, takerFeeBps: 50, feeBasis: 'stake' } }));
  },
};
