// venue_5: integer question ids holding integer outcome markets with `#` tokens; Eastern dates
// with start times that are sometimes "TBD" or null; prices only in the book; no fee information
// anywhere. In: the world and the clock. Out: FORMATS.md "venue_5" routes.
import type { FastifyInstance } from 'fastify';
import { type VenueId, eastern, h32, round2, unit } from '../core.ts';
import { intParam, offsetPos, page, windowOf } from '../paging.ts';
import { GROUP_SIZE, procFairAt, procMarket, procStatus } from '../procedural.ts';
import { lineRulesText } from '../rules.ts';
import { type Rendered, type SimCtx, type VenueModule, quote } from '../store.ts';
import { type GameState, type SimGame, fairAt, hasRulesText, lineRules, lineWins } from '../world.ts';

const V: VenueId = 'venue_5';
const TOPIC: Record<string, string> = {
  politics: 'Elections', crypto: 'Crypto', finance: 'Markets', economics: 'Macro', weather: 'Weather',
  culture: 'Celebrities', technology: 'Tech', entertainment: 'Awards', other: 'Misc',
};
const G = GROUP_SIZE[V];

function render(ctx: SimCtx, g: SimGame, st: GameState, t: number): Rendered[] {
  const out: Rendered[] = [];
  const e = eastern(st.start);
  const tbd = g.dh ? 1 : unit('v5tbd', g.i);
  const startEt = tbd < 0.1 ? 'TBD' : tbd < 0.15 ? null : `${String(e.h).padStart(2, '0')}:${String(e.mi).padStart(2, '0')}`;
  const title = `${g.home.name} vs ${g.away.name}${g.dh ? ` - Game ${g.dh}` : ''}`;
  const state = st.phase === 'scheduled' ? 'open' : st.phase === 'live' ? 'closed' : 'resolved';
  g.lines.forEach((l) => {
    if (!l.venues.includes(V)) return;
    const k = l.kind === 'moneyline' ? 0 : 1;
    const qid = 100_000 + g.i * 4 + k;
    const win = lineWins(g, l);
    const labels = l.kind === 'moneyline' ? [g.away.name, g.home.name] : [`Over ${l.line}`, `Under ${l.line}`];
    const lead = l.kind === 'moneyline' ? `Who wins ${title} on ${e.date}?` : `Total points in ${title} on ${e.date}: over or under ${l.line}?`;
    out.push({
      type: 'questions',
      rec: {
        question_id: qid,
        title: l.kind === 'moneyline' ? title : `${title}: total points over/under ${l.line}`,
        topic: g.league.toUpperCase(),
        kind: l.kind === 'moneyline' ? 'game_winner' : 'game_total',
        game_date: e.date,
        start_time_et: startEt,
        state,
        rules: hasRulesText(V, g, l) ? lineRulesText(V, g, l, lineRules(V, g, l), lead) : '',
        outcomes: labels.map((label, j) => {
          const oid = 48_000_000 + g.i * 16 + l.n * 2 + j;
          const outcomeState =
            st.phase === 'cancelled' ? 'void' : st.phase === 'final' ? ((j === 0) === win ? 'resolved_yes' : 'resolved_no') : st.phase === 'live' ? 'closed' : 'open';
          return { outcome_id: oid, token: `#${oid}`, label, state: outcomeState, volume: round2(unit('v5v', oid) * 20000) };
        }),
      },
      meta: { g, l, st },
    });
  });
  void t;
  return out;
}

function procQuestion(ctx: SimCtx, q: number, t: number): Record<string, unknown> {
  const sp = ctx.proc[V];
  const first = procMarket(sp, q * G);
  const outcomes = [];
  for (let j = 0; j < G; j++) {
    const i = q * G + j;
    const s = procStatus(sp, i, t);
    if (s === 'unlisted') continue;
    const m = procMarket(sp, i);
    const oid = 60_000_000 + i;
    outcomes.push({
      outcome_id: oid,
      token: `#${oid}`,
      label: m.optionLabel,
      state: s === 'open' ? 'open' : s === 'closed' ? 'closed' : unit('res', V, i) < m.fair ? 'resolved_yes' : 'resolved_no',
      volume: m.volume,
    });
  }
  const open = outcomes.some((o) => o.state === 'open');
  return {
    question_id: 200_000 + q,
    title: first.groupTitle,
    topic: first.tagged ? TOPIC[first.topic] : '',
    kind: 'generic',
    game_date: null,
    start_time_et: null,
    state: open ? 'open' : 'closed',
    rules: `Each outcome resolves Yes if it happens by ${new Date(first.closeAt).toISOString().slice(0, 10)}.`,
    outcomes,
  };
}

export const venue5: VenueModule = {
  venue: V,
  types: ['questions'],
  keys: (_type, rec) => [String(rec.question_id)],
  renderGame: render,
  routes(app: FastifyInstance, ctx: SimCtx) {
    const nf = (reply: { code(n: number): { send(b: unknown): unknown } }) => reply.code(404).send({ error: 'not_found' });
    const question = (id: number, t: number) => {
      const s = ctx.store(V).get('questions', String(id));
      if (s) return s;
      if (id < 200_000 || id >= 10_000_000) return undefined;
      const q = id - 200_000;
      const qq = procQuestion(ctx, q, t);
      return (qq.outcomes as unknown[]).length ? qq : undefined;
    };
    const outcome = (id: number, t: number): { o: Record<string, unknown>; q: Record<string, unknown> } | undefined => {
      let q: Record<string, unknown> | undefined;
      if (id >= 60_000_000) q = question(200_000 + Math.floor((id - 60_000_000) / G), t);
      else {
        // Sports outcome ids encode the game; find the question holding it.
        q = ctx.store(V).list('questions').find((x) => (x.outcomes as { outcome_id: number }[]).some((o) => o.outcome_id === id));
      }
      const o = (q?.outcomes as Record<string, unknown>[] | undefined)?.find((x) => x.outcome_id === id);
      return o && q ? { o, q } : undefined;
    };
    app.get('/venue_5/questions', async (req, reply) => {
      const q = req.query as Record<string, string>;
      const t = ctx.clock.now();
      const skip = intParam(q.skip, 0, 0, 1e9);
      const take = intParam(q.take, 50, 1, 200);
      if (skip === null || take === null) return reply.code(400).send({ error: 'invalid skip or take' });
      const state = q.state ?? 'open';
      let qs = ctx.store(V).list('questions').filter((x) => x.state === state);
      if (q.topic) qs = qs.filter((x) => String(x.topic).toLowerCase() === q.topic.toLowerCase());
      const w = state === 'open' && !q.topic ? windowOf(ctx.proc[V], t, G) : null;
      const res = page(qs, w, t, offsetPos(skip, qs.length, w, t), take, (n) => procQuestion(ctx, n, t));
      return { questions: res.items, skip, take, total: qs.length + (w ? w.hi - w.lo : 0) };
    });
    app.get('/venue_5/questions/:id', async (req, reply) => {
      const id = (req.params as { id: string }).id;
      if (!/^\d+$/.test(id)) return reply.code(400).send({ error: 'question_id must be an integer' });
      const q = question(+id, ctx.clock.now());
      return q ? { question: q } : nf(reply);
    });
    app.get('/venue_5/outcomes/:id', async (req, reply) => {
      const id = (req.params as { id: string }).id;
      if (!/^\d+$/.test(id)) return reply.code(400).send({ error: 'outcome_id must be an integer' });
      const r = outcome(+id, ctx.clock.now());
      return r ? { outcome: r.o, question_id: r.q.question_id } : nf(reply);
    });
    app.get('/venue_5/outcomes/:id/book', async (req, reply) => {
      const id = (req.params as { id: string }).id;
      if (!/^\d+$/.test(id)) return reply.code(400).send({ error: 'outcome_id must be an integer' });
      const t = ctx.clock.now();
      const r = outcome(+id, t);
      if (!r) return nf(reply);
      if (r.o.state !== 'open') return { bids: [], asks: [], ts: t };
      const meta = ctx.store(V).metaOf(r.q);
      let p: number;
      if (meta?.g && meta.l) {
        const f = fairAt(ctx.seed, meta.g, meta.l, t);
        p = (r.q.outcomes as unknown[]).indexOf(r.o) === 0 ? f : 1 - f;
      } else p = +id >= 60_000_000 ? procFairAt(ctx.proc[V], procMarket(ctx.proc[V], +id - 60_000_000), t) : 0.5;
      const q = quote(`${V}:${id}`, p, { emptyShare: 0.05 });
      const extra = 10 + (h32('v5d', id) % 200);
      return {
        bids: q.bid === null ? [] : [[q.bid, q.bidSize], [round2(Math.max(0.01, q.bid - 0.02)), extra]],
        asks: q.ask === null ? [] : [[q.ask, q.askSize], [round2(Math.min(0.99, q.ask + 0.02)), extra]],
        ts: t,
      };
    });
  },
};
