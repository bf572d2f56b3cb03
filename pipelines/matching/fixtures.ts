// Test and benchmark support: native venue records written the way FORMATS.md documents them
// (tickers, slugs, titles, rules phrases), for games a test describes. In: a game (league, team
// codes, start) and which lines to list. Out: raw records as the pollers put them on the topics.
// These are inputs only; every expectation in the tests is written by hand from the spec.
import type { RawRecord } from '../topics.ts';
import type { RosterBook } from './props.ts';
import { teamByKey, type League, type Team } from './teams.ts';
import { easternDate, easternTime, utcDate } from './time.ts';

export interface GameSpec {
  league: League;
  away: string;
  home: string;
  /** Exact start, UTC ms. */
  start: number;
  /** mlb doubleheader number (venue_2 slugs add `-2`). */
  dh?: 1 | 2;
  /** Spread: favourite key and positive size. */
  spread?: { team: string; size: number };
  total?: number;
  /** Rules: overtime text and tie/push wording per venue (default: the same everywhere). */
  tieVenue1?: string;
}

const MONTHS = ['JAN', 'FEB', 'MAR', 'APR', 'MAY', 'JUN', 'JUL', 'AUG', 'SEP', 'OCT', 'NOV', 'DEC'];
const t = (l: League, k: string): Team => {
  const x = teamByKey(l, k);
  if (!x) throw new Error(`no team ${l} ${k}`);
  return x;
};

let seq = 0;
export function raw(venue: string, recordType: string, nativeId: string, payload: unknown, readAt: number, readId = 'crawl-1'): RawRecord {
  return { venue, record_type: recordType, native_id: nativeId, read_started_at: readAt, payload: JSON.stringify(payload), read_id: readId, source_url: null };
}
export function crawlComplete(venue: string, readId: string, startedAt: number): RawRecord {
  return raw(venue, 'crawl_complete', readId, { feed: 'listing', started_at: startedAt }, startedAt, readId);
}

function v1Part(g: GameSpec): string {
  const d = easternDate(g.start);
  const hhmm = g.league === 'mlb' ? easternTime(g.start).replace(':', '') : '';
  return `${d.slice(2, 4)}${MONTHS[Number(d.slice(5, 7)) - 1]}${d.slice(8, 10)}${hhmm}${g.away.toUpperCase()}${g.home.toUpperCase()}`;
}

export interface V1Options {
  status?: string;
  result?: string;
  rules?: string;
  props?: { player: string; stat: string; threshold: number; series: string }[];
}

export function venue1Records(g: GameSpec, readAt: number, o: V1Options = {}, readId?: string): RawRecord[] {
  const L = g.league.toUpperCase();
  const part = v1Part(g);
  const a = t(g.league, g.away);
  const h = t(g.league, g.home);
  const rules = o.rules ?? `Overtime counts. A tie resolves No. Pushes are refunded. Rules: https://venue1.example/rules/KX${L}GAME`;
  const base = (ticker: string, event: string, title: string, cs: Record<string, unknown>) => ({
    ticker,
    event_ticker: event,
    market_type: 'binary',
    title,
    status: o.status ?? 'active',
    result: o.result ?? '',
    rules_primary: `If the condition holds, the market resolves to Yes.`,
    rules_secondary: rules,
    custom_strike: cs,
  });
  const out: RawRecord[] = [];
  const gameEv = `KX${L}GAME-${part}`;
  out.push(raw('venue_1', 'event', gameEv, { event_ticker: gameEv, series_ticker: `KX${L}GAME`, title: `${a.city} at ${h.city}`, strike_date: new Date(g.start).toISOString() }, readAt, readId));
  for (const team of [a, h]) {
    const tk = `${gameEv}-${team.key.toUpperCase()}`;
    out.push(raw('venue_1', 'market', tk, base(tk, gameEv, `${a.city} at ${h.city} Winner?`, { team: team.key.toUpperCase() }), readAt, readId));
  }
  if (g.spread) {
    const ev = `KX${L}SPREAD-${part}`;
    const tk = `${ev}-${g.spread.team.toUpperCase()}${Math.floor(g.spread.size)}`;
    out.push(raw('venue_1', 'market', tk, base(tk, ev, `spread`, { team: g.spread.team.toUpperCase(), floor_strike: g.spread.size }), readAt, readId));
  }
  if (g.total !== undefined) {
    const ev = `KX${L}TOTAL-${part}`;
    const tk = `${ev}-${Math.floor(g.total)}`;
    out.push(raw('venue_1', 'market', tk, base(tk, ev, `total`, { floor_strike: g.total }), readAt, readId));
  }
  for (const p of o.props ?? []) {
    const ev = `KX${L}${p.series}-${part}`;
    const tk = `${ev}-${p.player.replace(/\W/g, '').toUpperCase()}-${p.threshold}`;
    const text = `If ${p.player} does not play, the market resolves to No. Overtime counts. Statistics per the official box score. Stat corrections after settlement are not considered. If the game is postponed and not played within 48 hours, the market is void. If the game is cancelled, the market is void. If the game is interrupted and not completed, the market is void unless already decided. Resolution source: official league statistics. https://venue1.example/rules/props`;
    out.push(raw('venue_1', 'market', tk, { ...base(tk, ev, `${p.player}: ${p.threshold}+`, { player: p.player, stat: p.stat, threshold: p.threshold }), rules_secondary: text }, readAt, readId));
  }
  return out;
}

export interface V2Options {
  closed?: boolean;
  prices?: [string, string];
  resolved?: boolean;
  props?: { player: string; stat: string; line: number }[];
  idBase?: number;
  /** Moneyline only. */
  onlyMoneyline?: boolean;
}

export function venue2Slug(g: GameSpec): string {
  return `${g.league}-${g.away}-${g.home}-${utcDate(g.start)}${g.dh === 2 ? '-2' : ''}`;
}

export function venue2Records(g: GameSpec, readAt: number, o: V2Options = {}, readId?: string): RawRecord[] {
  const a = t(g.league, g.away);
  const h = t(g.league, g.home);
  const slug = venue2Slug(g);
  const idBase = o.idBase ?? 9_000_000 + (++seq) * 20;
  const gst = new Date(g.start).toISOString().replace('T', ' ').replace(/\.\d+Z$/, '+00');
  const rules = 'This market includes overtime. If the game ends in a tie, this market resolves 50-50. If the result lands exactly on the line, the market resolves 50-50 and pushes are refunded. If the game is postponed, this market remains open until the game is completed; if it is canceled with no make-up game, it resolves 50-50. Rules: https://venue2.example/rules/sports';
  const ev = { id: String(71_000 + idBase % 1000), slug, title: `${a.nickname} vs. ${h.nickname}` };
  const out: RawRecord[] = [];
  const mk = (n: number, question: string, outcomes: string[], smt: string, line: number | null, mslug: string, description = rules) => {
    const id = String(idBase + n);
    const cond = `0x${(idBase + n).toString(16).padStart(64, '0')}`;
    out.push(
      raw('venue_2', 'market', id, {
        id,
        question,
        conditionId: cond,
        slug: mslug,
        gameStartTime: gst,
        description,
        outcomes: JSON.stringify(outcomes),
        outcomePrices: JSON.stringify(o.prices ?? ['0.45', '0.55']),
        clobTokenIds: JSON.stringify([`${idBase + n}1111111111`, `${idBase + n}2222222222`]),
        active: true,
        closed: o.closed ?? false,
        sportsMarketType: smt,
        line,
        umaResolutionStatus: o.resolved ? 'resolved' : null,
        tags: [{ slug: 'sports' }, { slug: g.league }],
        events: [ev],
      }, readAt, readId),
    );
  };
  mk(0, `${a.nickname} vs. ${h.nickname}`, [a.nickname, h.nickname], 'moneyline', null, slug);
  if (o.onlyMoneyline) return out;
  if (g.spread) {
    const fav = t(g.league, g.spread.team);
    const other = fav === a ? h : a;
    mk(1, `Spread: ${fav.nickname} (-${g.spread.size})`, [fav.nickname, other.nickname], 'spreads', -g.spread.size, `${slug}-spread-${fav === h ? 'home' : 'away'}-${String(g.spread.size).replace('.', 'pt')}`);
  }
  if (g.total !== undefined) mk(2, `${a.nickname} vs. ${h.nickname}: O/U ${g.total}`, ['Over', 'Under'], 'totals', g.total, `${slug}-total-${String(g.total).replace('.', 'pt')}`);
  (o.props ?? []).forEach((p, i) => {
    const text = `If ${p.player} does not play, the market resolves to No. This market includes overtime. Statistics per the official box score. Stat corrections after settlement are not considered. If the game is postponed and not played within 48 hours, the market is void. If the game is cancelled, the market is void. If the game is interrupted and not completed, the market is void unless already decided. Resolution source: official league statistics. https://venue2.example/rules/sportsprops`;
    mk(5 + i, `${p.player}: ${p.stat.replace(/_/g, ' ').replace(/^\w/, (c) => c.toUpperCase())} O/U ${p.line}`, ['Over', 'Under'], p.stat, p.line, `${slug}-${p.player.toLowerCase().replace(/\W+/g, '-')}-${p.line}`, text);
  });
  return out;
}

export function venue3Records(g: GameSpec, readAt: number, readId?: string, id = 1_000_000 + (++seq) * 3): RawRecord[] {
  const a = t(g.league, g.away);
  const h = t(g.league, g.home);
  const title = `${a.name} @ ${h.name}`;
  const rules = 'Includes overtime and extra innings. Ties settle at 50/50. Stake returned on a push. Postponed games stay open until played. https://venue3.example/help/sports-rules';
  const sub = `X / ${g.league.toUpperCase()}`;
  const out = [
    raw('venue_3', 'market', String(id), {
      id,
      title,
      sub_category: sub,
      type: 'moneyline',
      line: null,
      status: 'open',
      starts_at: new Date(g.start).toISOString(),
      outcomes: [
        { token: `${id}00000000000001`, name: a.name },
        { token: `${id}00000000000002`, name: h.name },
      ],
      rules,
    }, readAt, readId),
  ];
  if (g.total !== undefined)
    out.push(
      raw('venue_3', 'market', String(id + 1), {
        id: id + 1,
        title: `${title}: Total ${g.total}`,
        sub_category: sub,
        type: 'total',
        line: g.total,
        status: 'open',
        starts_at: new Date(g.start).toISOString(),
        outcomes: [
          { token: `${id + 1}00000000000001`, name: `Over ${g.total}` },
          { token: `${id + 1}00000000000002`, name: `Under ${g.total}` },
        ],
        rules,
      }, readAt, readId),
    );
  return out;
}

export function venue4Records(g: GameSpec, readAt: number, readId?: string): RawRecord[] {
  const a = t(g.league, g.away);
  const h = t(g.league, g.home);
  const n = ++seq;
  const hash = (k: number) => `0x${(n * 10 + k).toString(16).padStart(64, 'a')}`;
  const rules = 'Results include overtime (OT included). Ties are refunded. Pushes are refunded. https://venue4.example/rules/betting';
  const base = { sportXeventId: `L${String(7_000_000 + n)}`, status: 'ACTIVE', teamOneName: a.name, teamTwoName: h.name, leagueLabel: g.league.toUpperCase(), gameTime: Math.floor(g.start / 1000), rules };
  const out = [raw('venue_4', 'market', hash(0), { ...base, marketHash: hash(0), type: 'MONEYLINE', line: null, outcomeOneName: a.name, outcomeTwoName: h.name }, readAt, readId)];
  if (g.spread) {
    const fav = t(g.league, g.spread.team);
    const other = fav === a ? h : a;
    out.push(raw('venue_4', 'market', hash(1), { ...base, marketHash: hash(1), type: 'SPREAD', line: -g.spread.size, outcomeOneName: `${fav.name} -${g.spread.size}`, outcomeTwoName: `${other.name} +${g.spread.size}` }, readAt, readId));
  }
  return out;
}

/**
 * The `reference.rosters` records the roster poller writes for a roster book (venues/pollers/
 * rosters.ts: keyed `roster|<league>|<team>`, the sports data source's body as read), for feeding a
 * canonicalizer the rosters a test or benchmark holds as a book.
 */
export function rosterRecords(book: RosterBook): { key: string; value: RawRecord }[] {
  return [...book.rosters.values()].map((r) => ({
    key: `roster|${r.league}|${r.team}`,
    value: {
      venue: 'sportsdata',
      record_type: 'roster',
      native_id: `${r.league}:${r.team}`,
      read_started_at: r.readAt,
      payload: JSON.stringify({ source: book.source, updated_at: new Date(r.readAt).toISOString(), athletes: r.players.map((p) => ({ id: p.athleteId, name: p.name })) }),
      read_id: null,
      source_url: null,
    },
  }));
}
