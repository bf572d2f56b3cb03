// venue_9: parent markets (a game or a multi-option question) holding binary children, each
// tradable pair addressed `<parent>:<child>` (both 0x + 64 hex); YES-side books; fees published
// as bps on the child. In: the world and the clock. Out: FORMATS.md "venue_9" routes.
import type { FastifyInstance } from 'fastify';
import { type VenueId, hexId, hexIndex, iso, round2, unit } from '../core.ts';
import { decodePos, encodePos, intParam, page, windowOf } from '../paging.ts';
import { GROUP_SIZE, procFairAt, procMarket, procStatus } from '../procedural.ts';
import { lineRulesText } from '../rules.ts';
import { type Rendered, type SimCtx, type VenueModule, quote } from '../store.ts';
import type { SimTeam } from '../teams.ts';
import { type GameState, type SimGame, eDate, fairAt, lineRules, lineWins } from '../world.ts';

const V: VenueId = 'venue_9';
const TAG: Record<string, string> = {
  politics: 'Politics', crypto: 'Crypto', finance: 'Stocks', economics: 'Economy', weather: 'Climate',
  culture: 'Culture', technology: 'AI', entertainment: 'Movies', other: 'Other',
};
const SPORTS_BASE = 50_000_000;
const G = GROUP_SIZE[V];

/**
 * venue_9 codes its titles from the nickname ("LAK" for the Lakers), unlike the common codes: the
 * first three letters, or another three-letter pick from the nickname when a team of the league
 * listed earlier already holds them. Unique within a league.
 */
const CODE9 = new Map<SimTeam, string>();
function code9(t: SimTeam, league: SimTeam[]): string {
  if (!CODE9.has(t)) {
    const used = new Set<string>();
    for (const o of league) {
      const w = o.nickname.replace(/[^A-Za-z0-9]/g, '').toUpperCase();
      const cands = [w.slice(0, 3), w.slice(0, 2) + w.slice(-1), w[0] + w.slice(-2), w[0] + w[2] + w[w.length - 1], w[0] + w[1] + w[3], w[0] + w[3] + w[4]];
      const c = cands.find((x) => x && x.length === 3 && !used.has(x)) ?? `${w.slice(0, 2)}${used.size}`;
      used.add(c);
      CODE9.set(o, c);
    }
  }
  return CODE9.get(t)!;
}

function childStatus(st: GameState): string {
  return st.phase === 'scheduled' ? 'trading' : st.phase === 'live' ? 'paused' : 'resolved';
}

function render(ctx: SimCtx, g: SimGame, st: GameState, t: number): Rendered[] {
  const parent = hexId(ctx.seed, 'v9p', SPORTS_BASE + g.i);
  const teams = [...ctx.world.byLeagueTeam.values()].filter((x) => x.league === g.league);
  const title = `${code9(g.away, teams)} vs ${code9(g.home, teams)}`;
  const children: Record<string, unknown>[] = [];
  let rules = '';
  for (const l of g.lines) {
    if (!l.venues.includes(V)) continue;
    const fair = fairAt(ctx.seed, g, l, t);
    const win = lineWins(g, l);
    const sides: [string, number, boolean][] =
      l.kind === 'moneyline' ? [[g.away.name, fair, win], [g.home.name, 1 - fair, !win]] : [[`Over ${l.line}`, fair, win]];
    sides.forEach(([name, p, w], k) => {
      const child = hexId(ctx.seed, 'v9c', SPORTS_BASE + g.i * 64 + l.n * 2 + k);
      const done = st.phase === 'final' || st.phase === 'cancelled';
      children.push({
        id: child,
        pair: `${parent}:${child}`,
        title: name,
        market_type: l.kind,
        line: l.line ?? null,
        yes_price: done ? (st.phase === 'cancelled' ? 0.5 : w ? 1 : 0) : round2(p),
        status: childStatus(st),
        resolved_to: done ? (st.phase === 'cancelled' ? 'void' : w ? 'yes' : 'no') : null,
        volume: round2(unit('v9v', child) * 20000),
        fee_rate_bps: 100,
        updated_at: iso(t - 45_000),
        rules: lineRulesText(V, g, l, lineRules(V, g, l), l.kind === 'moneyline' ? `Resolves Yes if ${name} wins ${title} on ${eDate(st.start)}.` : `Resolves Yes if ${title} on ${eDate(st.start)} has more than ${l.line} total points.`),
      });
      if (!rules) rules = String(children[children.length - 1].rules);
    });
  }
  return [
    {
      type: 'parents',
      rec: { id: parent, title, kind: 'game', category: 'sports', tags: [g.league.toUpperCase()], start_time: iso(st.start), rules, children },
      meta: { g, st },
    },
  ];
}

function procParent(ctx: SimCtx, q: number, t: number): Record<string, unknown> {
  const sp = ctx.proc[V];
  const head = procMarket(sp, q * G);
  const parent = hexId(ctx.seed, 'v9p', q);
  const children = [];
  for (let j = 0; j < G; j++) {
    const i = q * G + j;
    const s = procStatus(sp, i, t);
    if (s === 'unlisted') continue;
    const m = procMarket(sp, i);
    const child = hexId(ctx.seed, 'v9c', i);
    const win = unit('res', V, i) < m.fair;
    children.push({
      id: child,
      pair: `${parent}:${child}`,
      title: m.optionLabel,
      market_type: 'binary',
      line: null,
      yes_price: s === 'settled' ? (win ? 1 : 0) : round2(procFairAt(sp, m, t)),
      status: s === 'open' ? 'trading' : s === 'closed' ? 'closed' : 'resolved',
      resolved_to: s === 'settled' ? (win ? 'yes' : 'no') : null,
      volume: m.volume,
      fee_rate_bps: 100,
      updated_at: iso(t - 45_000),
    });
  }
  return {
    id: parent,
    title: head.groupTitle,
    kind: 'group',
    category: head.tagged ? TAG[head.topic].toLowerCase() : null,
    tags: head.tagged ? [TAG[head.topic]] : [],
    start_time: iso(head.createdAt),
    rules: `Each option resolves Yes if it happens before ${iso(head.closeAt)}.`,
    children,
  };
}

export const venue9: VenueModule = {
  venue: V,
  types: ['parents'],
  keys: (_type, rec) => [String(rec.id)],
  renderGame: render,
  routes(app: FastifyInstance, ctx: SimCtx) {
    const nf = (reply: { code(n: number): { send(b: unknown): unknown } }) => reply.code(404).send({ error: 'not found' });
    const parentOf = (id: string, t: number) => {
      const s = ctx.store(V).get('parents', id);
      if (s) return s;
      const q = hexIndex(ctx.seed, 'v9p', id.toLowerCase());
      if (q === null || q >= SPORTS_BASE) return undefined;
      const p = procParent(ctx, q, t);
      return (p.children as unknown[]).length ? p : undefined;
    };
    const pairOf = (pair: string, t: number) => {
      const m = /^(0x[0-9a-fA-F]{64}):(0x[0-9a-fA-F]{64})$/.exec(pair);
      if (!m) return null;
      const p = parentOf(m[1], t);
      const c = (p?.children as Record<string, unknown>[] | undefined)?.find((x) => String(x.id).toLowerCase() === m[2].toLowerCase());
      return c && p ? { p, c } : undefined;
    };
    app.get('/venue_9/parents', async (req, reply) => {
      const q = req.query as Record<string, string>;
      const t = ctx.clock.now();
      const limit = intParam(q.limit, 50, 1, 100);
      const pos = q.cursor && q.cursor !== 'LTE=' ? decodePos(q.cursor) : { s: 0 };
      if (limit === null || !pos) return reply.code(400).send({ error: 'bad limit or cursor' });
      if (q.cursor === 'LTE=') return { data: [], next_cursor: 'LTE=' };
      const active = q.active !== 'false';
      const ps = ctx.store(V).list('parents').filter((p) => (p.children as { status: string }[]).some((c) => (c.status === 'trading') === active));
      const w = active ? windowOf(ctx.proc[V], t, G) : null;
      const res = page(ps, w, t, pos, limit, (n) => procParent(ctx, n, t));
      return { data: res.items, next_cursor: res.next ? encodePos(res.next) : 'LTE=' };
    });
    app.get('/venue_9/parents/:id', async (req, reply) => {
      const id = (req.params as { id: string }).id;
      if (!/^0x[0-9a-fA-F]{64}$/.test(id)) return reply.code(400).send({ error: `invalid parent id ${id}` });
      return parentOf(id, ctx.clock.now()) ?? nf(reply);
    });
    app.get('/venue_9/markets/:pair', async (req, reply) => {
      const r = pairOf((req.params as { pair: string }).pair, ctx.clock.now());
      if (r === null) return reply.code(400).send({ error: 'invalid pair' });
      if (!r) return nf(reply);
      const { children, ...parent } = r.p;
      void children;
      return { ...r.c, parent: { id: parent.id, title: parent.title, kind: parent.kind, category: parent.category, tags: parent.tags } };
    });
    app.get('/venue_9/book/:pair', async (req, reply) => {
      const t = ctx.clock.now();
      const r = pairOf((req.params as { pair: string }).pair, t);
      if (r === null) return reply.code(400).send({ error: 'invalid pair' });
      if (!r) return nf(reply);
      if (r.c.status !== 'trading') return { bids: [], asks: [], timestamp: iso(t) };
      const q = quote(`${V}:${r.c.id}`, Number(r.c.yes_price), { emptyShare: 0.05 });
      return { bids: q.bid === null ? [] : [{ price: q.bid, size: q.bidSize }], asks: q.ask === null ? [] : [{ price: q.ask, size: q.askSize }], timestamp: iso(t) };
    });
  },
};
