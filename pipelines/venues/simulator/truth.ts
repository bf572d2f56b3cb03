/* eslint-disable @typescript-eslint/no-explicit-any -- reads the nine venues' native JSON records loosely */
// Ground truth of a simulated world: which venue markets are the same game and submarket, how
// each venue outcome maps onto the canonical outcome, and the expected settlement verdicts.
// In: the world and the rendered venue records. Out: a JSON document for evaluation only
// (bin/export-truth.ts writes it beside a scenario). The pipeline never imports this module:
// matching must work from what the venues publish.
import { VENUES, type VenueId, eastern, iso } from './core.ts';
import type { Rendered, SimCtx } from './store.ts';
import { VENUE_MODULES } from './venues/index.ts';
import { v7TypeId } from './venues/venue7.ts';
import { HALF2_EXCLUDES_OT, PROP_RULES, type SimGame, type SimLine, gameState, lineRules, propRules } from './world.ts';
import type { Player } from './teams.ts';

export interface TruthSource {
  provider: VenueId;
  market_id: string;
  event_id: string;
  /** Every identifier the venue publishes for this market (ids, slugs, tokens, condition id). */
  ids: string[];
  outcomes: { outcome_id: string; canonical_outcome_key: string }[];
}
export interface TruthSubmarket {
  key: string;
  market_type: string;
  segment: string;
  line?: number;
  subject?: string;
  /** True when the spec says the submarket must appear (two venues or more, prop admitted). */
  expect_match: boolean;
  why_not?: string;
  settlement_equivalence: 'equivalent' | 'different' | 'unverified';
  rule_values: Partial<Record<VenueId, Record<string, string>>>;
  source_markets: TruthSource[];
}
export interface TruthGame {
  event_id: string;
  league: string;
  away: string;
  home: string;
  scheduled_date: string;
  original_date: string;
  scheduled_start: string;
  doubleheader: number;
  postponed?: { announced_at: string; new_start: string };
  cancelled_at?: string;
  roster_gap?: string;
  submarkets: TruthSubmarket[];
}

function verdict(rows: Record<string, string>[], keys: readonly string[]): TruthSubmarket['settlement_equivalence'] {
  let unknown = false;
  let differ = false;
  for (const k of keys) {
    const known = rows.map((r) => r[k]).filter((v) => v !== 'unknown');
    if (known.length < rows.length) unknown = true;
    if (new Set(known).size > 1) differ = true;
  }
  return differ ? 'different' : unknown ? 'unverified' : 'equivalent';
}

function keyOf(g: SimGame, l: SimLine, v: VenueId): string {
  const t = (l.team ?? '').toLowerCase();
  const ot = (l.kind === 'team_total' || (l.segment === 'half:2' && !HALF2_EXCLUDES_OT.includes(v))) ? ':incl_ot' : '';
  switch (l.kind) {
    case 'moneyline':
      return `moneyline|${l.segment}|winner`;
    case 'spread':
      return `spread|${l.segment}|spread:${t}${ot}|${Math.abs(l.line!)}`;
    case 'total':
      return `total|${l.segment}|total|${l.line}`;
    case 'team_total':
      return `team_total|${l.segment}|team_total:${t}${ot}|${l.line}`;
    default:
      return `player_prop|full|sds_${g.league}_${l.player!.athleteId}:${l.stat}|${l.line}`;
  }
}

/** Canonical outcome keys of a line's first and second outcome. */
function outcomeKeys(g: SimGame, l: SimLine): [string, string] {
  const t = (l.team ?? '').toLowerCase();
  if (l.kind === 'moneyline') return [`winner:${g.away.code.toLowerCase()}`, `winner:${g.home.code.toLowerCase()}`];
  if (l.kind === 'spread') return [`cover:${t}`, `not_cover:${t}`];
  return ['over', 'under'];
}

/** Source markets of one line on one venue, read from the records the venue renders. */
function sourcesOf(recs: Rendered[], v: VenueId, g: SimGame, l: SimLine): TruthSource[] {
  const [k1, k2] = outcomeKeys(g, l);
  const out: TruthSource[] = [];
  for (const r of recs) {
    const rec = r.rec as Record<string, any>;
    switch (v) {
      case 'venue_1':
        if (r.type === 'markets' && r.meta?.l === l) {
          const yesKey = l.kind === 'moneyline' ? (rec.custom_strike.team === g.away.alt ? k1 : k2) : k1;
          const noKey = l.kind === 'moneyline' ? '' : k2;
          out.push({ provider: v, market_id: rec.ticker, event_id: rec.event_ticker, ids: [rec.ticker], outcomes: [{ outcome_id: 'yes', canonical_outcome_key: yesKey }, ...(noKey ? [{ outcome_id: 'no', canonical_outcome_key: noKey }] : [])] });
        }
        break;
      case 'venue_2':
        if (r.type === 'markets' && r.meta?.l === l) {
          const toks = JSON.parse(rec.clobTokenIds) as string[];
          out.push({ provider: v, market_id: rec.id, event_id: rec.events[0].id, ids: [rec.id, rec.slug, rec.conditionId, ...toks, rec.events[0].slug], outcomes: [{ outcome_id: toks[0], canonical_outcome_key: k1 }, { outcome_id: toks[1], canonical_outcome_key: k2 }] });
        }
        break;
      case 'venue_3':
        if (r.meta?.l === l) out.push({ provider: v, market_id: String(rec.id), event_id: String(rec.id), ids: [String(rec.id), ...rec.outcomes.map((o: any) => o.token)], outcomes: rec.outcomes.map((o: any, k: number) => ({ outcome_id: o.token, canonical_outcome_key: k ? k2 : k1 })) });
        break;
      case 'venue_4':
        if (r.type === 'markets' && r.meta?.l === l) out.push({ provider: v, market_id: rec.marketHash, event_id: rec.sportXeventId, ids: [rec.marketHash], outcomes: [{ outcome_id: 'outcomeOne', canonical_outcome_key: k1 }, { outcome_id: 'outcomeTwo', canonical_outcome_key: k2 }] });
        break;
      case 'venue_5':
        if (r.meta?.l === l) out.push({ provider: v, market_id: String(rec.question_id), event_id: String(rec.question_id), ids: [String(rec.question_id), ...rec.outcomes.flatMap((o: any) => [String(o.outcome_id), o.token])], outcomes: rec.outcomes.map((o: any, k: number) => ({ outcome_id: o.token, canonical_outcome_key: k ? k2 : k1 })) });
        break;
      case 'venue_6':
        if (r.type === 'markets' && r.meta?.l === l) out.push({ provider: v, market_id: rec.id, event_id: rec.event_id, ids: [rec.id, ...rec.outcomes.map((o: any) => o.token)], outcomes: rec.outcomes.map((o: any, k: number) => ({ outcome_id: o.token, canonical_outcome_key: k ? k2 : k1 })) });
        break;
      case 'venue_7': {
        for (const m of rec.markets ?? []) {
          const ln = (m.lines as any[]).find((x) => x.line === (l.line ?? null));
          if (!ln) continue;
          if (m.type_id !== v7TypeId(g, l)) continue;
          const three = l.line === undefined ? m.id : `${m.id}:${l.line}`;
          out.push({ provider: v, market_id: l.kind === 'player_prop' || l.alt ? three : m.id, event_id: String(rec.event_id), ids: [m.id, three], outcomes: [{ outcome_id: '1', canonical_outcome_key: k1 }, { outcome_id: '2', canonical_outcome_key: k2 }] });
        }
        break;
      }
      case 'venue_8':
        if (r.meta?.l === l) out.push({ provider: v, market_id: rec.slug, event_id: rec.slug, ids: [rec.slug, rec.id], outcomes: [{ outcome_id: 'yes', canonical_outcome_key: k1 }, { outcome_id: 'no', canonical_outcome_key: k2 }] });
        break;
      case 'venue_9':
        for (const c of rec.children ?? []) {
          if (c.market_type !== l.kind || (c.line ?? null) !== (l.line ?? null)) continue;
          const key = l.kind === 'moneyline' ? (c.title === g.away.name ? k1 : k2) : k1;
          out.push({ provider: v, market_id: c.pair, event_id: rec.id, ids: [c.pair, rec.id], outcomes: [{ outcome_id: 'yes', canonical_outcome_key: key }, ...(l.kind === 'moneyline' ? [] : [{ outcome_id: 'no', canonical_outcome_key: k2 }])] });
        }
        break;
    }
  }
  return out;
}

export function buildTruth(ctx: SimCtx): { generated_at: string; seed: number; anchor_day: string; games: TruthGame[] } {
  const games: TruthGame[] = [];
  const gaps = new Set(ctx.world.games.filter((g) => g.rosterGap).map((g) => `${g.league}:${g.rosterGap}`));
  for (const g of ctx.world.games) {
    const newStart = g.postpone?.newStart ?? g.start;
    const subs = new Map<string, TruthSubmarket>();
    // Records as the venues publish them an hour before the start (ids never change later).
    const st = gameState(g, g.start - 3600e3);
    const recsOf = new Map<VenueId, Rendered[]>(g.venues.map((v) => [v, VENUE_MODULES[v].renderGame(ctx, g, st, g.start - 3600e3)]));
    for (const l of g.lines) {
      for (const v of l.venues) {
        const key = keyOf(g, l, v);
        let s = subs.get(key);
        if (!s) {
          s = {
            key,
            market_type: l.kind,
            segment: l.segment,
            ...(l.kind !== 'moneyline' ? { line: l.kind === 'spread' ? l.line : l.line } : {}),
            ...(l.team ? { subject: l.team.toLowerCase() } : l.player ? { subject: `sds_${g.league}_${l.player.athleteId}` } : {}),
            expect_match: false,
            settlement_equivalence: 'unverified',
            rule_values: {},
            source_markets: [],
          };
          subs.set(key, s);
        }
        s.rule_values[v] = l.kind === 'player_prop' ? propRules(v) : { ...lineRules(v, g, l) };
        s.source_markets.push(...sourcesOf(recsOf.get(v)!, v, g, l));
      }
    }
    for (const s of subs.values()) {
      const providers = new Set(s.source_markets.map((x) => x.provider));
      s.expect_match = providers.size >= 2;
      if (!s.expect_match) s.why_not = 'listed by one venue';
      if (s.market_type === 'player_prop' && s.expect_match) {
        // "a missing, stale or ambiguous roster removes the prop, not the game lines"
        const missing = [g.away.code, g.home.code].find((c) => gaps.has(`${g.league}:${c}`));
        const stale = [g.away.code, g.home.code].find((c) => ctx.world.staleRosters.has(`${g.league}:${c}`));
        const both = [...ctx.world.rosters.get(`${g.league}:${g.away.code}`)!, ...ctx.world.rosters.get(`${g.league}:${g.home.code}`)!];
        const line = g.lines.find((l) => l.player && s.subject === `sds_${g.league}_${l.player.athleteId}`);
        if (missing) {
          s.expect_match = false;
          s.why_not = `roster of ${missing} missing`;
        } else if (stale) {
          s.expect_match = false;
          s.why_not = `roster of ${stale} stale (not updated for 10 days)`;
        } else if (line && both.filter((p) => p.name === rosterNameOf(both, line.player!)).length > 1) {
          s.expect_match = false;
          s.why_not = `player name ${line.player!.name} is on both rosters (ambiguous)`;
        }
      }
      const rows = Object.values(s.rule_values) as Record<string, string>[];
      s.settlement_equivalence = verdict(rows, s.market_type === 'player_prop' ? PROP_RULES : ['tie', 'overtime', 'push']);
    }
    games.push({
      event_id: `${g.league}-${g.away.code.toLowerCase()}-${g.home.code.toLowerCase()}-${eastern(g.start).date}`,
      league: g.league,
      away: g.away.code.toLowerCase(),
      home: g.home.code.toLowerCase(),
      scheduled_date: eastern(newStart).date,
      original_date: eastern(g.start).date,
      scheduled_start: iso(newStart),
      doubleheader: g.dh,
      ...(g.postpone ? { postponed: { announced_at: iso(g.postpone.at), new_start: iso(g.postpone.newStart) } } : {}),
      ...(g.cancel ? { cancelled_at: iso(g.cancel.at) } : {}),
      ...([g.away.code, g.home.code].some((c) => gaps.has(`${g.league}:${c}`))
        ? { roster_gap: [g.away.code, g.home.code].filter((c) => gaps.has(`${g.league}:${c}`)).join(',').toLowerCase() }
        : {}),
      submarkets: [...subs.values()],
    });
  }
  void VENUES;
  return { generated_at: iso(ctx.clock.now()), seed: ctx.seed, anchor_day: ctx.world.anchorDay, games };
}

/** The name the sports data source publishes for a line's player (it may add a suffix or accents). */
function rosterNameOf(both: readonly Player[], p: Player): string {
  return both.find((x) => x.athleteId === p.athleteId)?.name ?? p.name;
}
