// venue_7: integer events nesting markets `<event_id>:<market_type_id>` whose lines
// (`<event_id>:<market_type_id>:<line>`) carry decimal-odds back/lay offers on the record itself;
// commission on net winnings. In: the world and the clock. Out: FORMATS.md "venue_7" routes.
import type { FastifyInstance } from 'fastify';
import { type VenueId, h32, iso, round2, unit } from '../core.ts';
import { intParam, offsetPos, page } from '../paging.ts';
import { procFairAt, procMarket, procStatus } from '../procedural.ts';
import { lineRulesText, propRulesText, statWords } from '../rules.ts';
import { printedPlayer } from '../variants.ts';
import { type Rendered, type SimCtx, type VenueModule } from '../store.ts';
import { type GameState, type SimGame, type SimLine, fairAt, lineRules } from '../world.ts';

const V: VenueId = 'venue_7';
const SPORT: Record<string, string> = { nba: 'basketball', wnba: 'basketball', nfl: 'american_football', mlb: 'baseball', nhl: 'ice_hockey' };
const TOPIC_SPORT: Record<string, string> = {
  politics: 'politics', crypto: 'specials-crypto', finance: 'financials', economics: 'economics', weather: 'weather',
  culture: 'culture', technology: 'technology', entertainment: 'tv-and-film', other: 'specials',
};
const PROC_BASE = 40_000_000;

/** Market type id of a line (FORMATS.md "venue_7"). */
export function v7TypeId(g: SimGame, l: SimLine): number {
  if (l.kind === 'moneyline') return 1;
  if (l.kind === 'spread') return l.segment === 'half:2' ? 7 : l.segment === 'quarter:1' ? 8 : 2;
  if (l.kind === 'total') return l.segment === 'half:1' ? 6 : 3;
  if (l.kind === 'team_total') return l.team === g.home.code ? 4 : 5;
  const slot = g.lines.filter((x) => x.kind === 'player_prop' && x.n < l.n).length;
  return ({ points: 101, rebounds: 103, passing_yards: 111, rushing_yards: 112, receptions: 114 } as Record<string, number>)[l.stat!] + (l.stat === 'points' ? slot : 0);
}
const TYPE_NAME: Record<number, string> = { 1: 'Moneyline', 2: 'Handicap', 3: 'Total Points', 4: 'Home Team Total', 5: 'Away Team Total', 6: '1st Half Total', 7: '2nd Half Handicap', 8: '1st Quarter Handicap' };

function odds(p: number, key: string): { back: { odds: number; stake: number }[]; lay: { odds: number; stake: number }[] } {
  const h = h32('odds', key);
  const backP = Math.min(0.97, p + 0.01 + (h % 3) / 200);
  const layP = Math.max(0.03, p - 0.005);
  return { back: [{ odds: round2(1 / backP), stake: 50 + (h % 900) }], lay: [{ odds: round2(1 / layP), stake: 20 + ((h >>> 8) % 500) }] };
}

function state(st: GameState): string {
  return st.phase === 'scheduled' ? 'open' : st.phase === 'live' ? 'suspended' : st.phase === 'cancelled' ? 'closed' : 'settled';
}

function render(ctx: SimCtx, g: SimGame, st: GameState, t: number): Rendered[] {
  const eventId = 30_000_000 + g.i;
  const A = g.away.nickname;
  const H = g.home.nickname;
  const byType = new Map<number, SimLine[]>();
  for (const l of g.lines) {
    if (!l.venues.includes(V)) continue;
    const k = v7TypeId(g, l);
    byType.set(k, [...(byType.get(k) ?? []), l]);
  }
  const markets = [...byType.entries()].map(([typeId, lines]) => {
    const l0 = lines[0];
    const isProp = l0.kind === 'player_prop';
    // `wide` world: some props name the player by initial and surname.
    const who = isProp ? printedPlayer(ctx.world, g, l0.player!, 'v7', g.i, typeId) : '';
    const name = isProp ? `${who} ${statWords(l0.stat!).replace(/\b\w/g, (c) => c.toUpperCase())}` : TYPE_NAME[typeId];
    const sig = (x: number) => (x > 0 ? `+${x}` : String(x));
    const lead = (l: SimLine) =>
      isProp
        ? `${l.player!.name} total ${statWords(l.stat!)} in ${A} at ${H}.`
        : `${name} market on ${A} at ${H}${l.line !== undefined ? `, line ${l.line}` : ''}.`;
    // A whole-number alternate on prop markets: "25" is not "25+" (24.5), so it must stay unmatched.
    const shown = isProp ? [...lines, { ...l0, line: l0.line! + 0.5, alt: true }] : lines;
    return {
      id: `${eventId}:${typeId}`,
      event_id: eventId,
      type_id: typeId,
      name,
      lines: shown.map((l) => {
        const fair = fairAt(ctx.seed, g, l, t);
        const subj = l.team === g.away.code ? g.away : g.home;
        const other = subj === g.away ? g.home : g.away;
        const names =
          l.kind === 'moneyline'
            ? [A, H]
            : l.kind === 'spread'
              ? [`${subj.nickname} ${sig(l.line!)}`, `${other.nickname} ${sig(-l.line!)}`]
              : isProp
                ? [`${who} Over ${l.line} ${statWords(l.stat!).replace(/\b\w/g, (c) => c.toUpperCase())}`, `${who} Under ${l.line} ${statWords(l.stat!).replace(/\b\w/g, (c) => c.toUpperCase())}`]
                : [`Over ${l.line}`, `Under ${l.line}`];
        const open = st.phase === 'scheduled';
        return {
          line: l.line ?? null,
          favourite: !l.alt,
          selections: names.map((n, k) => ({ id: k + 1, name: n, ...(open ? odds(k === 0 ? fair : 1 - fair, `${eventId}:${typeId}:${l.line}:${k}`) : { back: [], lay: [] }) })),
        };
      }),
      rules: isProp ? propRulesText(V, g, l0, lead(l0)) : lineRulesText(V, g, l0, lineRules(V, g, l0), lead(l0)),
      state: state(st),
      matched_volume: round2(unit('v7v', g.i, typeId) * 50000),
    };
  });
  return [
    {
      type: 'events',
      rec: {
        event_id: eventId,
        name: `${A} at ${H}`,
        sport: SPORT[g.league],
        league: g.league.toUpperCase(),
        start: iso(st.start),
        state: state(st),
        commission_pct: 2.0,
        markets,
      },
      meta: { g, st },
    },
  ];
}

function procEvent(ctx: SimCtx, i: number, t: number): Record<string, unknown> {
  const sp = ctx.proc[V];
  const m = procMarket(sp, i);
  const s = procStatus(sp, i, t);
  const eventId = PROC_BASE + i;
  const p = procFairAt(sp, m, t);
  const open = s === 'open';
  return {
    event_id: eventId,
    name: m.title,
    sport: m.tagged ? TOPIC_SPORT[m.topic] : undefined,
    league: null,
    start: iso(m.closeAt),
    state: open ? 'open' : s === 'closed' ? 'closed' : 'settled',
    commission_pct: 2.0,
    markets: [
      {
        id: `${eventId}:1`,
        event_id: eventId,
        type_id: 1,
        name: 'Winner',
        lines: [{ line: null, favourite: true, selections: ['Yes', 'No'].map((n, k) => ({ id: k + 1, name: n, ...(open ? odds(k === 0 ? p : 1 - p, `${eventId}:1:${k}`) : { back: [], lay: [] }) })) }],
        rules: `Settles Yes if ${m.title.replace(/^Will /, '').replace(/\?$/, '')}.`,
        state: open ? 'open' : 'settled',
        matched_volume: m.volume,
      },
    ],
  };
}

export const venue7: VenueModule = {
  venue: V,
  types: ['events'],
  keys: (_type, rec) => [String(rec.event_id)],
  renderGame: render,
  routes(app: FastifyInstance, ctx: SimCtx) {
    const nf = (reply: { code(n: number): { send(b: unknown): unknown } }, what: string) => reply.code(404).send({ faultcode: 'NOT_FOUND', detail: `${what} not found` });
    const event = (id: number, t: number) => {
      const s = ctx.store(V).get('events', String(id));
      if (s) return s;
      if (id < PROC_BASE || id >= PROC_BASE + 100_000_000) return undefined;
      const i = id - PROC_BASE;
      return procStatus(ctx.proc[V], i, t) === 'unlisted' ? undefined : procEvent(ctx, i, t);
    };
    app.get('/venue_7/events', async (req, reply) => {
      const q = req.query as Record<string, string>;
      const t = ctx.clock.now();
      const offset = intParam(q.offset, 0, 0, 1e9);
      const count = intParam(q.count, 50, 1, 100);
      if (offset === null || count === null) return reply.code(400).send({ faultcode: 'INVALID_INPUT', detail: 'bad offset or count' });
      const stt = q.state ?? 'open';
      let evs = ctx.store(V).list('events').filter((e) => e.state === stt);
      if (q.sport) evs = evs.filter((e) => e.sport === q.sport);
      if (q.league) evs = evs.filter((e) => String(e.league).toLowerCase() === q.league.toLowerCase());
      const sp = stt === 'open' && !q.sport && !q.league ? ctx.proc[V] : null;
      const res = page(evs, sp, t, offsetPos(offset, evs.length, sp, t), count, (i) => procEvent(ctx, i, t));
      return { events: res.items, total: evs.length + (sp ? sp.count : 0) };
    });
    app.get('/venue_7/events/:id', async (req, reply) => {
      const id = (req.params as { id: string }).id;
      if (!/^\d+$/.test(id)) return reply.code(400).send({ faultcode: 'INVALID_INPUT', detail: `bad event id ${id}` });
      return event(+id, ctx.clock.now()) ?? nf(reply, 'event');
    });
    app.get('/venue_7/markets/:id', async (req, reply) => {
      const id = (req.params as { id: string }).id;
      const m = /^(\d+):(\d+)(?::(-?\d+(?:\.\d+)?))?$/.exec(id);
      if (!m) return reply.code(400).send({ faultcode: 'INVALID_INPUT', detail: `bad market id ${id}` });
      const ev = event(+m[1], ctx.clock.now());
      const mk = (ev?.markets as Record<string, unknown>[] | undefined)?.find((x) => x.type_id === +m[2]);
      if (!mk) return nf(reply, 'market');
      if (m[3] === undefined) return mk;
      const line = (mk.lines as { line: number | null }[]).find((x) => x.line !== null && x.line === Number(m[3]));
      return line ? { ...mk, id, lines: [line] } : nf(reply, 'line');
    });
  },
};
