// Rules text: each venue writes the settlement rules (tie, overtime, push for game lines; nine
// rules for player props) in its own phrasebook. In: a venue, a game, a line and the rule values
// the world chose (world.ts lineRules/propRules). Out: the free text the venue publishes. The
// phrases are listed in FORMATS.md ("Rules phrases"); the canonicalizer reads them from the text
// (pipelines/matching/rulesreader.ts), keeping only the sentences whose scope holds the market.
import type { VenueId } from './core.ts';
import { type LineRules, type SimGame, type SimLine, propRules } from './world.ts';

interface Phrasebook {
  otIncluded: string;
  otExcluded: string;
  /** A player prop's overtime sentence, where otIncluded speaks only of the final score (a prop
   * settles on a statistic, so a final-score sentence states nothing for it). */
  propOt?: string;
  tie: Record<string, string>;
  push: Record<string, string>;
  /** Sentences about other markets, periods or leagues (the reader must leave them out). */
  aside: string;
  postponed: string;
  url: string;
}

// Each venue's wording follows its kind of real rules text (test/fixtures/rules/texts.json holds
// the public texts it is modelled on): exchange contract rules for venue_1, venue_2, venue_5 and
// venue_9, sportsbook house rules for venue_3, venue_4 and venue_7. The asides are true statements
// about other markets; a reader that ignores scope reads them as this market's rule.
const BOOKS: Record<VenueId, Phrasebook> = {
  venue_1: {
    otIncluded: 'Overtime counts for all markets.',
    otExcluded: 'Second-half markets do not include overtime. Only points scored during the 3rd and 4th quarter count towards this market.',
    tie: { loses: 'If the game ends in a tie, all team strikes resolve to No.', void: 'If the game ends in a tie, all bets are void.', half_payout: 'If a game ends in a tie after all regulation and overtime periods, the market will resolve to $0.50 for each team.' },
    push: { loses: 'If the margin lands exactly on the line, the market resolves to No.', void: 'Pushes are refunded.' },
    aside: 'Markets that exclude overtime are denoted as Excl. OT.',
    postponed: 'If the game is postponed, the market remains open until the game is played, up to two weeks after the original date.',
    url: 'https://venue1.example/rules/',
  },
  venue_2: {
    otIncluded: 'The result will be determined based on the final score including any overtime periods.',
    otExcluded: 'The result will be determined based on regulation time only; overtime periods do not count.',
    propOt: 'Player statistics recorded in any overtime periods count toward this market.',
    tie: { half_payout: 'If the game ends in a tie, this market will resolve 50-50.', void: 'If the game ends in a tie, all bets are void.', loses: 'A tie resolves No.' },
    push: { void: 'If the result lands exactly on the line, the market resolves 50-50 and pushes are refunded.', loses: 'A push resolves No.' },
    aside: '',
    postponed: 'If the game is postponed, this market will remain open until the game has been completed; if it is canceled entirely, with no make-up game, it resolves 50-50.',
    url: 'https://venue2.example/rules/sports',
  },
  venue_3: {
    otIncluded: 'Winners are determined by the final score including overtime and extra innings.',
    otExcluded: 'Results are based on regulation time only.',
    tie: { half_payout: 'Ties settle at 50/50.', void: 'If the game ends in a tie, stakes are refunded.', loses: 'A tie loses.' },
    push: { void: 'If the result lands exactly on the line, the bet is a push and stakes are returned.', loses: 'A push loses.' },
    aside: 'Wagers on fourth quarters do not include overtime scoring. For European hockey, overtime and shootout do not count.',
    postponed: 'Postponed games stay open until played.',
    url: 'https://venue3.example/help/sports-rules',
  },
  venue_4: {
    otIncluded: 'All wagers on the full game include overtime; second-half wagers do not include overtime.',
    otExcluded: 'All wagers on the full game include overtime; second-half wagers do not include overtime.',
    tie: { void: 'Moneyline bets on a game that ends in a tie have no action and stakes are refunded.', half_payout: 'Ties settle at 50/50.', loses: 'A tie loses.' },
    push: { void: 'Pushes are graded as no action; teaser handling follows house rules.', loses: 'A push loses.' },
    aside: 'Bets on the 4th quarter do NOT include scores in overtime.',
    postponed: 'If the game is postponed beyond 48 hours, bets are void.',
    url: 'https://venue4.example/rules/betting',
  },
  venue_5: {
    otIncluded: 'Does overtime count? Overtime counts.',
    otExcluded: "Does overtime count? Overtime doesn't count.",
    tie: { void: 'If the game ends in a tie, all bets are void.', half_payout: 'A tie resolves 50-50.', loses: 'A tie resolves No.' },
    push: { void: 'Void on push.', loses: 'A push resolves No.' },
    aside: '',
    postponed: 'If the game is postponed, the question stays open.',
    url: 'https://venue5.example/rules',
  },
  venue_6: {
    otIncluded: 'Game lines include overtime.',
    otExcluded: 'Game lines exclude overtime.',
    tie: { half_payout: 'If the game ends in a tie, the line settles at 50/50.', void: 'Void if tied.', loses: 'A tie resolves No.' },
    push: { void: 'Pushes are refunded.', loses: 'A push resolves No.' },
    aside: '',
    postponed: 'Postponed games: settles with the mirrored market.',
    url: 'https://venue6.example/rules/game-lines',
  },
  venue_7: {
    otIncluded: 'Winners and losers are determined by the final score (including overtime). Second-half wagers do not include overtime.',
    otExcluded: 'Winners and losers are determined by the final score (including overtime). Second-half wagers do not include overtime.',
    propOt: 'Player prop wagers include overtime.',
    tie: { void: 'If the game ends in a tie, all bets are void.', half_payout: 'If the game ends in a tie, dead heat rules apply and bets are paid at half.', loses: 'A tie loses.' },
    push: { void: 'Stake returned on a push.', loses: 'A push loses.' },
    aside: 'A two-team teaser resulting in a tie is a loss.',
    postponed: 'If the event does not start within 24 hours of the scheduled time, bets are void.',
    url: 'https://venue7.example/rules/',
  },
  venue_8: {
    otIncluded: 'Overtime counts.',
    otExcluded: 'Overtime does not count.',
    tie: {},
    push: {},
    aside: '',
    postponed: '',
    url: '',
  },
  venue_9: {
    otIncluded: 'OT included.',
    otExcluded: 'Regulation only.',
    tie: { loses: 'If tied, the market resolves to No.', void: 'Void if tied.', half_payout: 'A tie resolves 50-50.' },
    push: { loses: 'A push resolves No.', void: 'Pushes are refunded.' },
    aside: 'European leagues are settled on regulation time only.',
    postponed: 'If the game is postponed, the market stays open until played.',
    url: 'https://venue9.example/docs/resolution',
  },
};

const SEGMENT_TEXT: Record<string, string> = {
  'half:1': 'Only the first half counts.',
  'quarter:1': 'Only the first quarter counts.',
  'half:2': 'Only the second half counts.',
};

/** The game-line rules text a venue publishes; '' when the venue publishes none. */
export function lineRulesText(v: VenueId, g: SimGame, l: SimLine, r: LineRules, lead: string): string {
  if (r.overtime === 'unknown') return '';
  const b = BOOKS[v];
  const parts = [lead];
  if (SEGMENT_TEXT[l.segment]) parts.push(SEGMENT_TEXT[l.segment]);
  if (r.overtime === 'included') parts.push(b.otIncluded);
  if (r.overtime === 'excluded') parts.push(b.otExcluded);
  if (b.tie[r.tie]) parts.push(b.tie[r.tie]);
  if (b.push[r.push]) parts.push(b.push[r.push]);
  if (b.aside) parts.push(b.aside);
  if (b.postponed) parts.push(b.postponed);
  if (b.url) parts.push(`Rules: ${b.url}${v === 'venue_1' ? seriesHint(g, l) : ''}`);
  return parts.join(' ');
}

function seriesHint(g: SimGame, l: SimLine): string {
  return `KX${g.league.toUpperCase()}${l.kind === 'moneyline' ? 'GAME' : l.kind.toUpperCase().replace('_', '')}`;
}

const STAT_WORDS: Record<string, string> = {
  points: 'points',
  rebounds: 'rebounds',
  passing_yards: 'passing yards',
  rushing_yards: 'rushing yards',
  receptions: 'receptions',
};
export function statWords(stat: string): string {
  return STAT_WORDS[stat] ?? stat;
}

/** The nine-rule player-prop text a venue publishes. */
export function propRulesText(v: VenueId, g: SimGame, l: SimLine, lead: string): string {
  const r = propRules(v);
  const b = BOOKS[v];
  const p = [lead];
  p.push(
    r.non_participation === 'void'
      ? `If ${l.player!.name} does not play, bets are void.`
      : `If ${l.player!.name} does not play, the market resolves to No.`,
  );
  p.push(b.propOt ?? b.otIncluded);
  p.push('Statistics per the official box score.');
  if (v === 'venue_1') p.push(`${l.line! + 0.5}+ means ${l.line! + 0.5} or more.`);
  else p.push(`Over ${l.line} means at least ${l.line! + 0.5}.`);
  p.push(
    r.stat_corrections === 'included_within_24h'
      ? 'Stat corrections within 24 hours are included.'
      : 'Stat corrections after settlement are not considered.',
  );
  p.push('If the game is postponed and not played within 48 hours, the market is void.');
  p.push('If the game is cancelled, the market is void.');
  p.push('If the game is interrupted and not completed, the market is void unless already decided.');
  p.push(`Resolution source: official league statistics. ${b.url}props`);
  return p.join(' ');
}
