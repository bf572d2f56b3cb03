// venue_1: series / event / market tickers, binary yes-no markets priced in cents, fees behind
// extra hops (event -> series -> fee schedule), user-built parlays. In: the world and the clock.
// Out: the HTTP routes of FORMATS.md "venue_1".
import type { FastifyInstance } from 'fastify';
import { type VenueId, eastern, h32, hex64, iso, monthDay, unit, yymmmdd } from '../core.ts';
import { page, decodePos, encodePos, intParam } from '../paging.ts';
import { type ProcMarket, procFairAt, procMarket, procStatus } from '../procedural.ts';
import { lineRulesText, propRulesText, statWords } from '../rules.ts';
import { type Rendered, type SimCtx, type VenueModule, quote } from '../store.ts';
import type { SimTeam } from '../teams.ts';
import { type GameState, type SimGame, type SimLine, eDate, fairAt, lineRules, lineWins } from '../world.ts';

const V: VenueId = 'venue_1';
const SPORT: Record<string, string> = { nba: 'basketball', wnba: 'basketball', nfl: 'football', mlb: 'baseball', nhl: 'hockey' };
const PROP_SERIES: Record<string, string> = { points: 'PTS', rebounds: 'REB', passing_yards: 'PASSYDS', rushing_yards: 'RUSHYDS', receptions: 'REC' };

/** Sibling registry: game-line series of one game ("venue_1 sibling fanout"). */
export const SIBLINGS: Record<string, string[]> = {
  nba: ['KXNBAGAME', 'KXNBASPREAD', 'KXNBATOTAL', 'KXNBATEAMTOTAL', 'KXNBA1HTOTAL', 'KXNBA1QSPREAD'],
  wnba: ['KXWNBAGAME', 'KXWNBASPREAD', 'KXWNBATOTAL'],
  nfl: ['KXNFLGAME', 'KXNFLSPREAD', 'KXNFLTOTAL', 'KXNFLTEAMTOTAL', 'KXNFL2HSPREAD'],
  mlb: ['KXMLBGAME', 'KXMLBSPREAD', 'KXMLBTOTAL'],
  nhl: ['KXNHLGAME', 'KXNHLSPREAD', 'KXNHLTOTAL'],
};

const TOPIC_CATEGORY: Record<string, string> = {
  politics: 'Politics', crypto: 'Crypto', finance: 'Financials', economics: 'Economics', weather: 'Climate and Weather',
  culture: 'Culture', technology: 'Science and Technology', entertainment: 'Entertainment', other: 'World',
};
const TOPIC_SERIES: Record<string, string> = {
  politics: 'KXELECT', crypto: 'KXCRYPTO', finance: 'KXINDEX', economics: 'KXECON', weather: 'KXHIGHTEMP',
  culture: 'KXCULT', technology: 'KXTECH', entertainment: 'KXBOXOFFICE', other: 'KXWORLD',
};

function teamName(t: SimTeam): string {
  return t.sharedCity ? `${t.city} ${t.nickname[0]}` : t.city;
}

export function seriesOf(g: SimGame, l: SimLine): string {
  const L = g.league.toUpperCase();
  if (l.kind === 'player_prop') return `KX${L}${PROP_SERIES[l.stat!]}`;
  if (l.kind === 'moneyline') return `KX${L}GAME`;
  const seg = l.segment === 'half:1' ? '1H' : l.segment === 'half:2' ? '2H' : l.segment === 'quarter:1' ? '1Q' : '';
  return `KX${L}${seg}${l.kind === 'team_total' ? 'TEAMTOTAL' : l.kind.toUpperCase()}`;
}
export function gamePart(g: SimGame): string {
  const e = eastern(g.start);
  const hhmm = g.league === 'mlb' ? `${String(e.h).padStart(2, '0')}${String(e.mi).padStart(2, '0')}` : '';
  return `${yymmmdd(e.date)}${hhmm}${g.away.alt}${g.home.alt}`;
}

function status(st: GameState): string {
  return st.phase === 'scheduled' ? 'active' : st.phase === 'live' ? 'closed' : 'settled';
}

interface V1Market {
  suffix: string;
  title: string;
  yesSub: string;
  yesFair: number;
  wins: boolean;
  strike: Record<string, unknown>;
  lead: string;
}

function marketsOf(g: SimGame, l: SimLine, fair: number): V1Market[] {
  const a = teamName(g.away);
  const h = teamName(g.home);
  const game = `${a} at ${h}`;
  const date = monthDay(eDate(g.start), true);
  const sport = SPORT[g.league];
  const team = (code?: string) => (code === g.away.code ? g.away : g.home);
  switch (l.kind) {
    case 'moneyline':
      return [g.away, g.home].map((t, k) => ({
        suffix: t.alt,
        title: `${game} Winner?`,
        yesSub: teamName(t),
        yesFair: k === 0 ? fair : 1 - fair,
        wins: lineWins(g, l) === (k === 0),
        strike: { team: t.alt },
        lead: `If ${teamName(t)} wins the ${game} professional ${sport} game originally scheduled for ${date}, then the market resolves to Yes.`,
      }));
    case 'spread': {
      const t = team(l.team);
      const x = Math.abs(l.line!);
      const seg = l.segment === 'full' ? '' : l.segment === 'half:1' ? ' in the 1st half' : l.segment === 'half:2' ? ' in the 2nd half' : ' in the 1st quarter';
      return [{
        suffix: `${t.alt}${Math.floor(x)}`,
        title: `${teamName(t)} wins by over ${x} points${seg}?`,
        yesSub: `${teamName(t)} wins by over ${x} points${seg}`,
        yesFair: fair, wins: lineWins(g, l), strike: { team: t.alt, floor_strike: x },
        lead: `If ${teamName(t)} wins the ${game} professional ${sport} game originally scheduled for ${date} by more than ${x} points${seg}, then the market resolves to Yes.`,
      }];
    }
    case 'total': {
      const seg = l.segment === 'half:1' ? ' 1st Half' : '';
      return [{
        suffix: `${Math.floor(l.line!)}`,
        title: `${game}:${seg} Total Points`,
        yesSub: `Over ${l.line} points scored`,
        yesFair: fair, wins: lineWins(g, l), strike: { floor_strike: l.line },
        lead: `If more than ${l.line} points are scored in the ${game} professional ${sport} game${seg ? ' first half' : ''} originally scheduled for ${date}, then the market resolves to Yes.`,
      }];
    }
    case 'team_total': {
      const t = team(l.team);
      return [{
        suffix: `${t.alt}${Math.floor(l.line!)}`,
        title: `${teamName(t)} Total Points: ${game}`,
        yesSub: `${teamName(t)} over ${l.line} points`,
        yesFair: fair, wins: lineWins(g, l), strike: { team: t.alt, floor_strike: l.line },
        lead: `If ${teamName(t)} scores more than ${l.line} points in the ${game} professional ${sport} game originally scheduled for ${date}, then the market resolves to Yes.`,
      }];
    }
    default: {
      const p = l.player!;
      const thr = l.line! + 0.5;
      const last = p.name.split(' ').slice(-1)[0].replace(/[^A-Za-z]/g, '').toUpperCase();
      return [{
        suffix: `${p.team}${p.name[0]}${last}${p.jersey}-${thr}`,
        title: `${p.name}: ${thr}+ ${statWords(l.stat!)}`,
        yesSub: `${thr}+`,
        yesFair: fair, wins: lineWins(g, l), strike: { player: p.name, stat: l.stat, threshold: thr },
        lead: `If ${p.name} records ${thr}+ ${statWords(l.stat!)} in the ${game} professional ${sport} game originally scheduled for ${date}, then the market resolves to Yes.`,
      }];
    }
  }
}

/** Cents as the venue prints them: 0 means no bid (or no ask) on that side. */
function cents(p: number | null): number {
  return p === null ? 0 : Math.round(p * 100);
}

function renderGame(ctx: SimCtx, g: SimGame, st: GameState, t: number): Rendered[] {
  const out: Rendered[] = [];
  const part = gamePart(g);
  const events = new Set<string>();
  for (const l of g.lines) {
    if (!l.venues.includes(V)) continue;
    const series = seriesOf(g, l);
    const eventTicker = `${series}-${part}`;
    if (!events.has(eventTicker)) {
      events.add(eventTicker);
      const a = teamName(g.away);
      const h = teamName(g.home);
      out.push({
        type: 'events',
        rec: {
          event_ticker: eventTicker,
          series_ticker: series,
          title: `${a} at ${h}`,
          sub_title: `${g.away.alt} @ ${g.home.alt} (${monthDay(eDate(g.start))})`,
          category: 'Sports',
          mutually_exclusive: l.kind === 'moneyline',
          strike_date: iso(st.start),
        },
        meta: { g, st },
      });
    }
    const r = lineRules(V, g, l);
    const fair = fairAt(ctx.seed, g, l, t);
    for (const m of marketsOf(g, l, fair)) {
      const ticker = `${eventTicker}-${m.suffix}`;
      const q = quote(ticker, m.yesFair, { emptyShare: 0.03 });
      const settled = st.phase === 'final' || st.phase === 'cancelled';
      const text = l.kind === 'player_prop' ? propRulesText(V, g, l, m.lead) : lineRulesText(V, g, l, r, m.lead);
      const [primary, ...rest] = text.split('. ');
      const vol = 1000 + (h32('vol', ticker) % 90000);
      out.push({
        type: 'markets',
        rec: {
          ticker,
          event_ticker: eventTicker,
          series_ticker: series,
          market_type: 'binary',
          category: 'Sports',
          title: m.title,
          subtitle: '',
          yes_sub_title: m.yesSub,
          no_sub_title: m.yesSub,
          open_time: iso(g.start - 7 * 86400e3),
          close_time: iso(st.start + 14 * 86400e3),
          expected_expiration_time: iso(st.start + 3 * 3600e3),
          status: status(st),
          result: st.phase === 'cancelled' ? 'void' : st.phase === 'final' ? (m.wins ? 'yes' : 'no') : '',
          yes_bid: settled ? 0 : cents(q.bid),
          yes_ask: settled ? 0 : cents(q.ask),
          no_bid: settled || q.ask === null ? 0 : 100 - cents(q.ask),
          no_ask: settled || q.bid === null ? 0 : 100 - cents(q.bid),
          last_price: settled ? (m.wins ? 99 : 1) : cents(q.last),
          volume: vol,
          volume_24h: Math.floor(vol / 7),
          liquidity: vol * 50,
          open_interest: Math.floor(vol * 0.6),
          rules_primary: primary ? primary + (rest.length ? '.' : '') : '',
          rules_secondary: rest.join('. '),
          custom_strike: m.strike,
          can_close_early: true,
        },
        meta: { g, l, st, extra: m.yesFair },
      });
    }
  }
  return out;
}

// ---- procedural (non-sports) ----

function procTickers(m: ProcMarket): { series: string; event: string; ticker: string } {
  const series = m.tagged ? TOPIC_SERIES[m.topic] : 'KXMISC';
  const event = `${series}-${yymmmdd(new Date(m.closeAt).toISOString().slice(0, 10))}G${m.group.toString(36).toUpperCase()}`;
  return { series, event, ticker: `${event}-O${m.option}` };
}
function procIndex(ctx: SimCtx, ticker: string): number | null {
  const mm = /^KX[A-Z]+-\d\d[A-Z]{3}\d\dG([0-9A-Z]+)(?:-O(\d))?$/.exec(ticker.toUpperCase());
  if (!mm) return null;
  const i = parseInt(mm[1], 36) * 3 + (mm[2] ? +mm[2] : 0);
  if (!Number.isSafeInteger(i)) return null;
  const m = procMarket(ctx.proc[V], i);
  const tk = procTickers(m);
  return (mm[2] ? tk.ticker : tk.event) === ticker.toUpperCase() ? i : null;
}
function procRecord(ctx: SimCtx, i: number, t: number): Record<string, unknown> {
  const sp = ctx.proc[V];
  const m = procMarket(sp, i);
  const tk = procTickers(m);
  const s = procStatus(sp, i, t);
  const q = quote(tk.ticker, procFairAt(sp, m, t));
  const open = s === 'open';
  const wins = unit('res', V, i) < m.fair;
  return {
    ticker: tk.ticker,
    event_ticker: tk.event,
    series_ticker: tk.series,
    market_type: 'binary',
    category: m.tagged ? TOPIC_CATEGORY[m.topic] : '',
    title: m.title,
    subtitle: m.groupTitle,
    yes_sub_title: m.optionLabel,
    no_sub_title: m.optionLabel,
    open_time: iso(m.createdAt),
    close_time: iso(m.closeAt),
    status: open ? 'active' : s === 'closed' ? 'closed' : 'settled',
    result: s === 'settled' ? (wins ? 'yes' : 'no') : '',
    yes_bid: open ? cents(q.bid) : 0,
    yes_ask: open ? cents(q.ask) : 0,
    no_bid: open && q.ask !== null ? 100 - cents(q.ask) : 0,
    no_ask: open && q.bid !== null ? 100 - cents(q.bid) : 0,
    last_price: cents(q.last),
    volume: Math.round(m.volume),
    volume_24h: Math.round(m.volume24h),
    liquidity: Math.round(m.liquidity * 100),
    open_interest: m.openInterest,
    rules_primary: `If ${m.title.replace(/^Will /, '').replace(/\?$/, '')}, then the market resolves to Yes.`,
    rules_secondary: '',
    can_close_early: false,
  };
}

// ---- parlays (user-built multi-leg markets; FORMATS.md "Parlays") ----

function parlays(ctx: SimCtx, t: number, markets: Record<string, unknown>[]): Rendered[] {
  const open = markets.filter((m) => m.status === 'active' && String(m.series_ticker).endsWith('GAME'));
  const n = Math.min(open.length, 10 + Math.round(20 * ctx.scale));
  const out: Rendered[] = [];
  for (let k = 0; k < n && open.length >= 2; k++) {
    const legs = [open[h32(ctx.seed, 'leg', k, 0) % open.length], open[h32(ctx.seed, 'leg', k, 1) % open.length]];
    if (legs[0] === legs[1]) continue;
    const nba = legs.every((x) => String(x.series_ticker).startsWith('KXNBA'));
    const coll = nba ? 'KXMVENBASINGLEGAME' : 'KXMVESPORTSMULTIGAME';
    const hx = hex64(ctx.seed, 'parlay', k).slice(2).toUpperCase();
    const ticker = `${coll}-S2026${hx.slice(0, 10)}-${hx.slice(10, 21)}`;
    const fair = legs.reduce((a, x) => a * ((x.yes_ask as number) || 50) / 100, 1);
    const q = quote(ticker, Math.max(0.02, fair));
    out.push({
      type: 'markets',
      rec: {
        ticker,
        event_ticker: `${coll}-S2026${hx.slice(0, 10)}`,
        series_ticker: coll,
        market_type: 'binary',
        category: 'Sports',
        title: legs.map((x) => `yes ${x.yes_sub_title}`).join(','),
        subtitle: '',
        yes_sub_title: 'Yes',
        no_sub_title: 'No',
        status: 'active',
        result: '',
        yes_bid: cents(q.bid), yes_ask: cents(q.ask), no_bid: q.ask === null ? 0 : 100 - cents(q.ask), no_ask: q.bid === null ? 0 : 100 - cents(q.bid),
        last_price: cents(q.last), volume: 10 + k, volume_24h: k, liquidity: 0, open_interest: k,
        mve_collection_ticker: coll,
        mve_selected_legs: legs.map((x) => ({ event_ticker: x.event_ticker, market_ticker: x.ticker, side: 'yes' })),
        rules_primary: 'This market resolves Yes if every selected leg resolves Yes.',
        rules_secondary: '',
      },
    });
  }
  void t;
  return out;
}

// ---- series and fees (the extra hops of "trading_fees" for venue_1) ----

function seriesRecord(ticker: string): Record<string, unknown> | null {
  const m = /^KX([A-Z0-9]+)$/.exec(ticker.toUpperCase());
  if (!m) return null;
  const T = ticker.toUpperCase();
  const sports = /^KX(NBA|WNBA|NFL|MLB|NHL)/.test(T) || T.startsWith('KXMVE');
  const topic = Object.entries(TOPIC_SERIES).find(([, s]) => s === T)?.[0];
  if (!sports && !topic && T !== 'KXMISC') return null;
  // "genuine zero": first-quarter lines and weather are fee free; props charge makers too.
  const feeFree = T.endsWith('1QSPREAD') || T === 'KXHIGHTEMP';
  const prop = /(PTS|REB|PASSYDS|RUSHYDS|REC)$/.test(T);
  return {
    ticker: T,
    title: T,
    category: sports ? 'Sports' : topic ? TOPIC_CATEGORY[topic] : '',
    tags: sports ? ['Sports', T.replace(/^KX(NBA|WNBA|NFL|MLB|NHL).*/, '$1')] : topic ? [TOPIC_CATEGORY[topic]] : [],
    frequency: sports ? 'custom' : 'daily',
    fee_type: feeFree ? 'fee_free' : prop ? 'quadratic_with_maker_fees' : 'quadratic',
    fee_multiplier: feeFree ? 0 : 0.07,
    maker_fee_multiplier: prop ? 0.0175 : 0,
    settlement_sources: [{ name: 'Official league statistics', url: 'https://venue1.example/rules/' + T }],
  };
}

function notFound(reply: { code(n: number): { send(b: unknown): unknown } }, what: string): unknown {
  return reply.code(404).send({ error: { code: 'not_found', message: `${what} not found` } });
}

export const venue1: VenueModule = {
  venue: V,
  types: ['markets', 'events'],
  keys: (type, rec) => [String(type === 'markets' ? rec.ticker : rec.event_ticker)],
  renderGame,
  routes(app: FastifyInstance, ctx: SimCtx) {
    const store = () => {
      const s = ctx.store(V);
      return s;
    };
    const parlayCache = { version: -1 as unknown, list: [] as Rendered[] };
    const allMarkets = (t: number) => {
      const s = store();
      if (parlayCache.version !== s) {
        parlayCache.version = s;
        parlayCache.list = parlays(ctx, t, s.list('markets'));
      }
      return [...s.list('markets'), ...parlayCache.list.map((r) => r.rec)];
    };
    const getMarket = (ticker: string, t: number) => {
      const s = store().get('markets', ticker);
      if (s) return s;
      const p = allMarkets(t).find((m) => String(m.ticker) === ticker.toUpperCase() && m.mve_collection_ticker);
      if (p) return p;
      // An event ticker is not a market ("A venue_1 event ticker on this route is 404").
      if (!/-O\d$/i.test(ticker)) return undefined;
      const i = procIndex(ctx, ticker);
      if (i === null || procStatus(ctx.proc[V], i, t) === 'unlisted') return undefined;
      return procRecord(ctx, i, t);
    };

    app.get('/venue_1/series/fee_changes', async (req) => {
      const q = req.query as Record<string, string>;
      const T = String(q.series_ticker ?? '').toUpperCase();
      const changes = T === 'KXNFLGAME' ? [{ series_ticker: T, fee_type: 'quadratic', fee_multiplier: 0.05, scheduled_ts: iso(Date.parse('2027-01-01T00:00:00Z')) }] : [];
      return { series_fee_change_arr: changes };
    });
    app.get('/venue_1/series/:ticker', async (req, reply) => {
      const s = seriesRecord((req.params as { ticker: string }).ticker);
      return s ? { series: s } : notFound(reply, 'series');
    });
    app.get('/venue_1/events', async (req, reply) => {
      const q = req.query as Record<string, string>;
      const limit = intParam(q.limit, 100, 1, 200);
      const pos = decodePos(q.cursor);
      if (limit === null || !pos) return reply.code(400).send({ error: { code: 'bad_request', message: 'invalid limit or cursor' } });
      const t = ctx.clock.now();
      const s = store();
      let events = s.list('events');
      const status = q.status ?? 'open';
      const markets = s.list('markets');
      const openEvents = new Set(markets.filter((m) => m.status === 'active').map((m) => m.event_ticker));
      if (status === 'open') events = events.filter((e) => openEvents.has(e.event_ticker));
      if (q.series_ticker) events = events.filter((e) => e.series_ticker === q.series_ticker.toUpperCase());
      const nested = q.with_nested_markets === 'true';
      const withM = (e: Record<string, unknown>) => (nested ? { ...e, markets: markets.filter((m) => m.event_ticker === e.event_ticker) } : e);
      const res = page(events, q.series_ticker || status !== 'open' ? null : ctx.proc[V], t, pos, limit, (i) => {
        const m = procRecord(ctx, i * 1, t);
        return { event_ticker: m.event_ticker, series_ticker: m.series_ticker, title: (procMarket(ctx.proc[V], i) as ProcMarket).groupTitle, sub_title: '', category: m.category, mutually_exclusive: false };
      });
      // Procedural events are groups of three markets: list each group once (its first option).
      const seen = new Set<unknown>();
      const items = res.items.filter((e) => {
        const k = (e as Record<string, unknown>).event_ticker;
        if (seen.has(k)) return false;
        seen.add(k);
        return true;
      });
      return { events: items.map((e) => withM(e as Record<string, unknown>)), cursor: res.next ? encodePos(res.next) : '' };
    });
    app.get('/venue_1/events/:ticker', async (req, reply) => {
      const T = (req.params as { ticker: string }).ticker.toUpperCase();
      const t = ctx.clock.now();
      const s = store();
      const e = s.get('events', T);
      if (e) return { event: e, markets: s.list('markets').filter((m) => m.event_ticker === e.event_ticker) };
      const i = /-O\d$/.test(T) ? null : procIndex(ctx, T);
      if (i !== null && procStatus(ctx.proc[V], i, t) !== 'unlisted') {
        const first = procRecord(ctx, i, t);
        const ms = [0, 1, 2].map((k) => i + k).filter((j) => procStatus(ctx.proc[V], j, t) !== 'unlisted').map((j) => procRecord(ctx, j, t));
        return { event: { event_ticker: first.event_ticker, series_ticker: first.series_ticker, title: first.subtitle, sub_title: '', category: first.category, mutually_exclusive: false }, markets: ms };
      }
      return notFound(reply, 'event');
    });
    app.get('/venue_1/markets', async (req, reply) => {
      const q = req.query as Record<string, string>;
      const limit = intParam(q.limit, 100, 1, 1000);
      const pos = decodePos(q.cursor);
      if (limit === null || !pos) return reply.code(400).send({ error: { code: 'bad_request', message: 'invalid limit or cursor' } });
      const t = ctx.clock.now();
      const status = q.status ?? 'open';
      const want = status === 'open' ? 'active' : status;
      let ms = allMarkets(t).filter((m) => m.status === want);
      if (q.series_ticker) ms = ms.filter((m) => m.series_ticker === q.series_ticker.toUpperCase());
      if (q.event_ticker) ms = ms.filter((m) => m.event_ticker === q.event_ticker.toUpperCase());
      const procOk = status === 'open' && !q.series_ticker && !q.event_ticker && (!q.category || q.category !== 'Sports');
      if (q.category) ms = ms.filter((m) => m.category === q.category);
      const res = page(ms, procOk ? ctx.proc[V] : null, t, pos, limit, (i) => procRecord(ctx, i, t));
      let items = res.items as Record<string, unknown>[];
      if (q.category && procOk) items = items.filter((m) => m.category === q.category);
      return { markets: items, cursor: res.next ? encodePos(res.next) : '' };
    });
    app.get('/venue_1/markets/:ticker', async (req, reply) => {
      const m = getMarket((req.params as { ticker: string }).ticker, ctx.clock.now());
      return m ? { market: m } : notFound(reply, 'market');
    });
    app.get('/venue_1/markets/:ticker/orderbook', async (req, reply) => {
      const m = getMarket((req.params as { ticker: string }).ticker, ctx.clock.now());
      if (!m) return notFound(reply, 'market');
      if (m.status !== 'active') return { orderbook: { yes: null, no: null } };
      const yb = m.yes_bid as number | null;
      const ya = m.yes_ask as number | null;
      const size = 100 + (h32('sz', String(m.ticker)) % 900);
      return {
        orderbook: {
          yes: yb ? [[Math.max(1, yb - 2), size * 2], [yb, size]] : null,
          no: ya ? [[Math.max(1, 100 - ya - 3), size * 3], [100 - ya, size + 7]] : null,
        },
      };
    });
  },
};
