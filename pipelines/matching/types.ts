// The matching domain's types. In: nothing (types only). Out: the canonical market (one venue
// market read into the service's words, produced by the per-venue canonicalizers), and the
// published shapes of the spec's "Matched sports event", "Submarket", "Source market" and
// "Rule matrix" (the API serves these objects as they are).
import type { League } from '../../lib/vocabulary.ts';

export type { Provider, MarketType } from '../../lib/vocabulary.ts';
import type { Provider, MarketType } from '../../lib/vocabulary.ts';
import type { MarketQuotes } from './prices.ts';
export type Segment = 'full' | 'half:1' | 'half:2' | 'quarter:1' | 'quarter:2' | 'quarter:3' | 'quarter:4';

export const GAME_LINE_RULES = ['tie', 'overtime', 'push'] as const;
export type GameLineRule = (typeof GAME_LINE_RULES)[number];
export const PROP_RULES = [
  'non_participation',
  'overtime',
  'stat_definition',
  'threshold',
  'stat_corrections',
  'postponement',
  'cancellation',
  'interruption',
  'resolution_source',
] as const;
export type PropRule = (typeof PROP_RULES)[number];

/** One rule's value for one venue market ("Rule matrix": value, description, evidence when known). */
export interface RuleValue {
  value: string; // 'unknown' when the venue's text does not say
  description: string;
  evidence_url?: string;
}

export interface SourceOutcome {
  canonical_outcome_key: string;
  label: string;
  outcome_id: string;
  side?: 'yes' | 'no';
}

/** "Source market": identical shape for every venue. */
export interface SourceMarket {
  provider: Provider;
  event_id: string;
  market_id: string;
  market_name: string;
  market_slug?: string;
  outcomes: SourceOutcome[];
}

export interface Subject {
  type: 'team' | 'player';
  key: string;
  name: string;
}

/** Where a venue market stands, from what the venue publishes. */
export type VenueStatus = 'open' | 'closed' | 'settled';

/**
 * One venue market, canonicalized. The submarket key, the event grouping and the verdict are all
 * computed from these fields; nothing here comes from anywhere but the venue's own record.
 */
export interface CanonicalMarket {
  provider: Provider;
  league: League;
  away: string;
  home: string;
  /** America/New_York calendar day of the start (or the venue's date for date-only listings). */
  scheduledDate: string;
  /** Unix ms of an exact start; null for date-only or placeholder times. */
  scheduledStart: number | null;
  /** A venue's own doubleheader number (1, 2) when it prints one. */
  gameNumber?: number;
  marketType: MarketType;
  segment: Segment;
  /** The venue counts overtime in this line (the key's `:incl_ot` where the spec puts it). */
  inclOt: boolean;
  /** Spreads: the subject's signed line; totals and props: positive. */
  line?: number;
  subject?: Subject;
  /** Props: admitted statistic name (e.g. `passing_yards`). */
  stat?: string;
  source: SourceMarket;
  /** Rule rows read from the venue's rule text and metadata. */
  rules: Partial<Record<GameLineRule | PropRule, RuleValue>>;
  /** Props only: player, game, statistic, threshold and side identity verified (strict policy). */
  propVerified?: boolean;
  /** Lower-case native ids this market also answers to in lookups (slugs, tokens, condition ids). */
  lookupIds: string[];
  status: VenueStatus;
  /** Settled void or as a 50-50 (a cancellation, or an nfl tie): no result. */
  settledFiftyFifty?: boolean;
  /** When the poller read this record (for snapshot.observed_at). */
  observedAt: number;
  /** Top of book and taker fee as the record carries them (open markets of venues that list them). */
  quotes?: MarketQuotes;
}

/**
 * A player prop a venue's reading refused only for want of a fresh roster of its teams (props.ts
 * awaitsRoster): returned among the record's markets, so the canonicalizer reads the record again
 * once the rosters come instead of waiting for the venue to publish it again.
 */
export interface AwaitingRoster {
  readonly refused: 'awaiting_roster';
}

/** What a venue's reading gives for one market of a record: the canonical market, or a prop awaiting its roster. */
export type MarketReading = CanonicalMarket | AwaitingRoster;

export interface CanonicalOutcome {
  key: string;
  label: string;
  type: 'participant' | 'total';
  side: 'win' | 'cover' | 'not_cover' | 'over' | 'under';
}

export interface RuleSourceValue {
  provider: Provider;
  market_id: string;
  value: string;
  description: string;
  evidence_url?: string;
}

export type Comparison = 'equivalent' | 'different' | 'unverified';

export interface RuleComparison {
  rule: string;
  label: string;
  comparison: Comparison;
  source_values: RuleSourceValue[];
}

export interface Submarket {
  key: string;
  market_type: MarketType;
  segment: Segment;
  display_name: string;
  metric: string;
  line?: number;
  subject?: Subject;
  rules?: { settlement: 'incl_ot' };
  outcomes: CanonicalOutcome[];
  source_markets: SourceMarket[];
  settlement_equivalence: Comparison;
  /** Always computed; the route drops it from game lines unless include_rules=true. */
  rule_comparisons: RuleComparison[];
}

export interface Participant {
  key: string;
  name: string;
  role: 'away' | 'home';
}

export interface MatchedEvent {
  event_id: string;
  sport: string;
  league: League;
  title: string;
  scheduled_date: string;
  scheduled_start: string | null;
  participants: Participant[];
  submarkets: Submarket[];
}
