// The rules reader on sentences venues write: a clause counts only for the markets its scope holds,
// negation and exceptions turn a value, clauses that apply and disagree give unknown, silence is
// never read as a value, and every known value quotes its clause. Then the quality gate on the first
// batch's evaluation part of the corpus of real rules texts (test/fixtures/rules), and a guard on the
// two blind batches' rows (all development now, their former evaluation parts included); a later blind
// batch is measured once by bin/eval-rules.ts and reported (test/fixtures/rules/measurements.md), not gated.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { clauses, readRule, sentences, type MarketScope } from './rulesreader.ts';
import { readGameLineRules } from './rulestext.ts';
import { evaluate, loadCorpus, type Part } from './ruleseval.ts';

/** Stated values of the fourth blind batch read right after round 6, and the silent rows it still
 * reports known (p636: a game-winner contract's "final score, which includes any overtime period"
 * placed on a player prop, the class of p470 and p536, which p057 values the other way). */
const BLIND4_RIGHT = 118;
const BLIND4_SILENT_KNOWN: string[] = [];
/** The fifth blind batch after round 8: stated values read right, and the one silent row still
 * reported known (p765: "Full-game and second-half lines include overtime scoring" on a full-game
 * player prop, a hand value disputed in measurements.md, round 8). */
// 100 since round 22 ('the home side' is a team, not the sides market).
// 101 and no silent row read known since round 24 (p765's hand value corrected to included, fc27477).
// 102 since round 29 (F5, the first five innings, is baseball's first half: p758's tie).
const BLIND5_RIGHT = 102;
const BLIND5_SILENT_KNOWN: string[] = [];
/** The sixth blind batch after the round that tuned on it: stated values read right, and the silent
 * rows still reported known (measurements.md: p799, a goalie's start on a prop whose player the
 * market does not name; p895, "every market" on a player prop, a hand value disputed there). A
 * "Winner (incl. extra innings)" label names the money line since the tenth batch's safety round. */
// 124 since the round on clause structures ("Game and 2nd-half wagers" names the full game too).
// 125 since round 24 (p895's hand value corrected to included, 2f11fc1); p799 stays listed (a position-only
// rule left unread cost p312, p442, p443 and the paraphrase probes on pitchers and quarterbacks).
const BLIND6_RIGHT = 125;
const BLIND6_SILENT_KNOWN = ['p799'];
/** The seventh blind batch after the round that tuned on it (safety first), and the later round on
 * stated values read unknown: stated values read right, and no silent row reported known. */
// Five more since the round on clause structures (an exception inset by commas, an example after a dash),
// and one since "the winner's total" names no total market.
// 91 since round 32 ('home total' is the team total: p974; 'the performance of one or more players' names player props: p957).
// 92 since round 42 (a player who "counts as a runner" is a bet that stands: p909).
const BLIND7_RIGHT = 92;
const BLIND7_SILENT_KNOWN: string[] = [];
// The eighth blind batch, development since its blind figure: what tuning reached. p1053's silent
// overtime value (an extra-innings sentence about the result, read for a player prop) is the hand
// value the same sentence of the first batch (p282) contradicts; it stays listed, not tuned away.
// 44 and none listed since round 24: p1053's hand value corrected to included as p282's (1cf1648).
// 46 since round 32 ('a cancelled or postponed match' names a cancelled game, p1053's cancellation; 'the performance of one or
// more players' names player props, its non-participation).
// 48 since round 42 (a contract that "resolves as HOME if ... more than 4 points, or AWAY otherwise" gives the line
// itself to the other side: p1026, p1027).
const BLIND8_RIGHT = 48;
const BLIND8_SILENT_KNOWN: string[] = [];
// The ninth blind batch, development since its blind figure: what the safety round reached (no wrong
// value, no opposite pair read alike). Two silent rows still read known: p1099 ("this wager" after a
// player's line, read for the money line beside it) and p1172 (a "2-Way:" label read for a total; a
// two-way label read as the money line lost right values on five other parts). Right values since the
// round on stated values read unknown (a line-adjusted tie as a push, an entry moved down for a DNP,
// an outcome with no winner, players who did not start).
// One more since the round on clause structures (a list item naming a market of ours and an alternate line).
// 62 since round 22 ('the official result' is the game's result; 'the normal duration' is regulation).
// p1099 unknown since round 24 (a demonstrative's bet is the one named before it, 6465edd).
// 64 since round 32 ('only goals during regular time': p1094, p1095).
const BLIND9_RIGHT = 64;
const BLIND9_SILENT_KNOWN = ['p1172'];
// The tenth blind batch, development since its blind figure, after its safety round: no value read
// wrong, and the kinds behind seven stated values read unknown fixed ("this also applies to", an
// example after a comma, "goals by one team", "that match" after a semicolon). Four silent rows still
// read known, each left with its reason in measurements.md: p1202 and p1234 (a push sentence for every
// two-outcome market or total, read for a fourth-quarter total the hand leaves silent), p1211 (a
// starting pitcher's first pitch, read for a batter's prop) and p1242 (the result's regulation-time
// basis read for a player prop, as p1053).
// 67 since the round on clause structures ("the same ... treatment applies"); 68 since the thirteenth
// batch's round ("if the favourite wins by exactly the spread" names a margin, not one side).
// 69 since round 22 ('that result carries the overtime scores').
// 71 since round 24 (p1202's and p1234's hand values corrected to void, bade198 and ad120d5); p1242 unknown
// (a clause whose subject is the result says nothing of a prop's overtime, c44c827); p1211 stays listed.
// 72 since round 32 ('counts neither as a win nor as a loss' denies the loss: p1183).
// 73 since round 54 (a suspended event that "does not resume within" 36 hours names a cancellation: p1187).
const BLIND10_RIGHT = 73;
const BLIND10_SILENT_KNOWN = ['p1211'];
// The eleventh blind batch: guarded since round 24 (p1299's hand value corrected to void, 2131a4f, its one
// silent row read known).
// 76 since round 32 ('counts neither as a win nor as a loss' denies the loss: p1290, p1291).
const BLIND11_RIGHT = 76;
// The twelfth blind batch, development since its blind figure (74 of 114 right, one wrong, five silent
// rows read known): after its safety round, no value wrong and no silent row read known, and eight push
// values read (odds set at 1.00, "games that tie once the spread is taken into account", "the push rule
// applies:", "the margin of victory equals the spread"), and six overtime values ("extra play", "for all
// sports except hockey, ...").
// 90 since the round on the two newest batches' misses ('settled at odds of 1' is the stake back, 7bd9794).
// 91 since round 29 (F5 is baseball's first half: p1423's tie).
// 93 since round 32 ('is also a push': p1424; the periods a half counts are no scope of the clause: p1393).
const BLIND12_RIGHT = 93;
// The thirteenth blind batch, development since its blind figure (57 of 86 right, three wrong, one
// silent row read known, three opposite pairs read alike), after its safety round and the round's
// stated values. One silent row still reads known: p1498 ("Unless the offer states otherwise, bets
// include overtime" in a football chapter, read for a player prop of that chapter; the hand leaves it
// silent, a value disputed in measurements.md).
// 80 since round 22 (a lead-in's list after its own exception).
// 81 and none listed since round 24 (p1498's hand value corrected to included, a820a2e).
// 82 since round 32 ('dead heat rules apply' to a tied two-way line: p1463).
// 83 since round 42 ("the shootout winner's extra goal goes into the final score": p1487).
const BLIND13_RIGHT = 83;
const BLIND13_SILENT_KNOWN: string[] = [];
// The fourteenth blind batch, development since its blind figure (59 of 93 right, no wrong value, four
// silent rows read known): after round 22, no silent row read known (a game that must start, a push named
// for a game stopped short, a page on a sport outside the spec) and sixteen stated values read.
// 76 since round 29 (F5 is baseball's first half: p1577's tie); 77 with round 30 merged beside it (the winner
// market: p1579).
// 79 since round 32 ('match odds' is the money line: p1572; 'dead heat rules' for a tied two-way line: p1569).
// 80 since round 42 (a contract's "resolve Yes above ..., and No if the player is inactive": p1563).
const BLIND14_RIGHT = 80;
// The fifteenth blind batch, development since its blind figure (60 of 96 right, no wrong value, five
// silent rows read known): after round 23, no silent row read known (a field-hockey page, a guide's
// "Normally ...", an entry's refund when all selections push, a push named for a game lasting under
// official time, a platform's list of settlement options; their hand values read again and kept) and
// twenty stated values read.
// 81 since round 24 ('depends on the whole match' names what decides the bet).
// 84 since the round on the two newest batches' misses (p1675's cancellation hand value corrected to void,
// 20bf7c2, and read with its non-participation value through 'odds 1'; 'winner' listed among markets).
// 85 since round 29 (F5 is baseball's first half: p1656's tie).
const BLIND15_RIGHT = 85;
const BLIND15_SILENT_KNOWN: string[] = [];
// The sixteenth blind batch, development since its blind figure (56 of 86 right on round 22's reader,
// 57 on round 23's, whose author never saw it; no wrong value, no silent row read known).
// 65 since round 24 (the score after overtime, '(60 minutes)' after regulation, the head to head, an aside
// inside a condition).
// 72 since the round on the two newest batches' misses ('odds 1', a listed result or winner, 'the most popular
// bets' as a superlative, a clause saying where overtime is played, 'one team only, and ...').
// 78 since round 29 (a bet decided by who wins in overtime, a win in overtime or in regulation, totals that
// 'push if' they land on the line).
const BLIND16_RIGHT = 78;
// The seventeenth blind batch, development since its blind figure (80 of 106 right on round 23's reader,
// with 4 wrong values, 5 silent rows read known and 4 opposite pairs read equivalent): after this round
// none wrong, no opposite pair read alike, 82 right; two silent rows still read known (p1791, a
// draw-no-bet sentence about regular time read as the tie rule of a two-way line; p1824, a bet
// builder's example "the whole bet is cancelled", valued void on the same wording in p1322, p1324 and
// p1325 of the eleventh batch; measurements.md). 81 with round 24's reader merged beside it (p1784's
// 'count overtime but not the shootout' after 'regular time, 60 minutes', left unknown by round 24).
// 103 and none listed since the round on the two newest batches' misses: p1791 unknown (a tie at the end of
// regulation is no tie rule of a market including overtime, 8d30463), p1824's hand value corrected to void as
// p1322's (350f098), and twenty-one stated values read by kind (measurements.md).
// 105 since round 29 ('at all' is no 'all bets'; 'his individual totals' are a player's lines).
const BLIND17_RIGHT = 105;
const BLIND17_SILENT_KNOWN: string[] = [];
// The eighteenth blind batch, development since its blind figure (71 of 100 right on the reader at 41c625d,
// with 5 wrong values and 3 of 44 silent rows read known, no opposite pair read alike): after the round on
// it none wrong, no silent row read known (a claim quoted to be refuted, the two-way result, a market
// labelled as including overtime, a sport's length of play longer than ours), and 87 right (odds of 1,
// at 1.0, the offered limit, the handicap added, come to bat, O/U; measurements.md).
// 96 since round 29 (a number and a half is a count, 'the regular 60 minutes', 'winner (two outcomes)', a bet
// decided in extra innings, 'the match result (1 or 2)' in a list, 'like baseball' compared with, 'added in',
// national and international championships, 'recorded on the usual playing time'); 97 with a result of three choices.
const BLIND18_RIGHT = 97;
const BLIND18_SILENT_KNOWN: string[] = [];
// The nineteenth blind batch, development since its blind figure (73 of 100 right on the reader at 5ed3e39,
// no wrong value, 2 of 46 silent rows read known, no opposite pair read alike): after the round on it no
// silent row read known (a team's goals name the team total; a bet builder's terms say nothing of a prop
// the text names a single bet), and 95 right (supplementary time, testa a testa, the winner of the match,
// a next-scorer market, a half covering two quarters, coefficient 1, the game or the quarter, a result
// after the handicap, level when overtime ends; measurements.md).
// 99 since round 29 (a win in regular time or in the added time, a consequence's hedge, half a point for a
// tied pick, 'postponed ... or cancelled').
// 100 since a tipping contest's tip on "the exact result of the match after regular playing time" leaves overtime out of its money line (p2005; round 50).
const BLIND19_RIGHT = 100;
// The twentieth blind batch, development since its blind figure (70 of 101 right on the reader at d40352e,
// with 1 wrong value and 6 of 53 silent rows read known, no opposite pair read alike): after the round on it
// none wrong, no silent row read known (lacrosse and handball pages, a hedge over providers, one team's line,
// a definition of overtime, a section of definitions), and 91 right (an inset after "all bets", a period's
// length, shootout goals for players, every overtime, a lottery's market names, the game type 'Winner', the
// 60-minute result, the main time, a team's individual total, getting on the court, the winner bet;
// measurements.md). 92 with round 29 merged beside it.
// 93 since round 32 ('regulation only' outranks a bare count verb: p2087).
// 94 since round 42 (a team total of 3 where "the team scores exactly 3" is a push: p2061).
const BLIND20_RIGHT = 94;
// The twenty-first blind batch, development since its blind figure (64 of 84 right on the reader at a820471,
// with 3 wrong values, one kind of sentence, and none of 40 silent rows read known, no opposite pair read
// alike): after the round on it none wrong (an exception that only defers to other rules, "unless these
// American football rules or the Market Information say otherwise"), no silent row read known, and 75 right
// (a heading of settlement after a one-line definition, periods named among all bets, "only <what> counts"
// after a denied value, ", while <market> <value>" after a clause stating none, "a team favoured by 3"
// naming the spread, a hedged consequence after "so"; measurements.md).
const BLIND21_RIGHT = 75;
// The twenty-second blind batch, development since its blind figure (87 of 110 right on the reader at 9f3328a,
// with 3 wrong values from two kinds of scope and none of 27 silent rows read known, 3 opposite pairs read
// alike): after the round on it none wrong (combination bets outside ours, "within the scope of" settlement,
// markets on overtime or the shootout alone), no silent row read known, and 101 right (a half defined as the
// sum of quarters, "without the overtime", one goal for the shootout winner, a combination bet's clause after a
// single bet's, "equal to the line", "takes no part", "steps onto the floor", "the betting side", "for the bet
// to be valid", strikeout bets; measurements.md).
const BLIND22_RIGHT = 101;
// The twenty-third blind batch, development since its blind figure (61 of 82 right on the reader at 44b2a8d,
// with 1 wrong value, a contrast's elided verb before a reason, and none of 32 silent rows read known): after
// the round on it none wrong, no silent row read known, and 74 right (a reason after an elliptical clause or a
// statement is a clause of its own, "a team's own total", a contrasted market's relative clause, a side's
// blocking before a semicolon, a pronoun object after a sentence on overtime, a hockey player's shift, "not
// the starter", "this market will resolve 50-50", "settled as a dead heat"; measurements.md).
// 75 since round 42 (a money line that "can be won in regulation, in overtime or in the shootout": p2274); 76 since
// an over/under on "the total points scored during regular time" (p2312).
const BLIND23_RIGHT = 76;
// The twenty-fourth blind batch, development since its blind figure (42 of 59 right on the reader at 825cfb8,
// the same at 404b596, with 1 wrong value, a sport named beside other sports' leagues, and 5 of 24 silent rows
// read known, 1 opposite pair read alike): after the round on it none wrong, no silent row read known (a glossary
// entry, "the World Series included", the result under a "Winner:" label, "the match, otherwise the bets are
// cancelled"; p2368's cancellation valued 'void' again, as p981's same sentence is), and 58 of 60 right (the end of
// a section of definitions, "scored into", a two-legged tie, "a team's run total", "a batter's hits bet",
// "resolves 'Under'", "must be in the game for the bet to count", "are losing", a list of cases after a
// semicolon; measurements.md).
const BLIND24_RIGHT = 58;
// The twenty-fifth blind batch, development since its blind figure (53 of 79 right on the reader at 404b596,
// with 4 wrong values, a contrast's quarters clause read for the winner, a level score at the end of regulation
// read as a settlement, a winner line's clause read for a quarter, and 1 of 22 silent rows read known, a game
// total's clause read for the money line): after the round on it none wrong, no silent row read known, and 62
// right (a bet named by what it is placed on and "the game total" as subjects of coordinated statements, "the
// winner line", "only that quarter's points", a moment after a level score, "second-half lines" after a
// semicolon, "a batter's hits bet", "a team's goal total"; measurements.md).
// 65 since round 38 ("Period definitions:" heads the venue's own periods, not a glossary; quarters take no hockey
// from the clause before: p2432-p2434). 66 since "graded on every overtime period" (p2435); 67 since "the final score
// with any overtime periods" (p2391); 71 since "only markets clearly labelled 'including extra time'" leaves
// overtime out of the unlabelled ones (p2398-p2401); 72 since a contract's "No when he ... is listed inactive" (p2385);
// 74 since a draw as "its own choice on the slip" and "the result is read after overtime" (p2453 twice); 75 since a
// contract's "Outcomes: ...; Tie" list (p2394). 76 since "All players listed in the squad are treated as runners"
// (a player who does not play is a runner whose bet stands: p2457).
const BLIND25_RIGHT = 76;
// The twenty-sixth blind batch, development since its blind figure (58 of 73 right on the reader at 55fdff2,
// with no wrong value and 1 of 28 silent rows read known, p2460's "The result is taken from the final score
// including any overtime periods and shootouts" for an NHL total): p2460's hand value was then corrected to
// `included` (the sentence is valued so for a total on a winner contract at p055 and p1152; measurements.md),
// leaving none wrong, no silent row read known, and 59 of 74 right.
// 63 since round 38 (an odds feed's regulation-only period, "the periodID 'reg'", is outside our markets: p2522-p2525);
// 65 since "a fourth-quarter total" keeps its period from a team total after a semicolon and "counts only ..., not
// any overtime" leaves overtime out (p2509, p2510); 69 since "does not enter the court", "all markets resolve to 50/50",
// "a fair market price" and a parenthesis's ", not entered" read (p2472 twice, p2487, p2488); 70 since "overtime and
// penalty shootouts excluded" leaves overtime out (p2495); 71 since "rather than a refund" sets the refund aside (p2502);
// 72 since "a team that wins in overtime ... is recorded as the match winner" (p2466).
const BLIND26_RIGHT = 72;
// The twenty-seventh blind batch, development since its blind figure (58 of 76 right on the reader at 48c072e,
// with 2 wrong values and one pair of opposite stated values read alike, 0 of 21 silent rows read known): p2537's
// "nobody earns or loses certainty points on it" (a denied loss, now unknown, which also ends the pair p2537/p2590
// read alike) and p2550's "..., while second-half lines run through the third and fourth quarters and any overtime"
// (a statement of its own, now included) leave none wrong and 59 of 76 right (measurements.md, round 39).
// 71 since the same round's kinds of unknown rows ("non-spread", "loses none", "counts as a miss", a team's
// total, "applies equally", "all ice hockey markets, ... included", "graded a loss", "level at halftime", a
// game that "does not begin").
const BLIND27_RIGHT = 71;
// The twenty-eighth blind batch, development since its blind figure (72 of 84 right on the reader at 6993b28, with
// 2 wrong values, 1 of 26 silent rows read known and two pairs of opposite stated values read alike): p2628's
// "the spread bet on NO -3" ("NO" in capitals before a line is a name, not a denial, now included), p2607's "the
// Devils' 3.5 counts regulation goals only" (now excluded; the two pairs read alike were these two rows) and p2601's
// "Settlement typically uses the regulation second-half score only; overtime is excluded ..." (a hedged value, now
// unknown) leave none wrong, no silent row read known and 74 of 84 right (measurements.md, round 40).
// 77 since "is thrown out for everyone" (a push), "does not come to the plate even once" with "annulled" and "scored as
// incorrect" (a tie) read (p2618, p2621, p2616); 78 since "the question is thrown out" for an inactive player (p2657).
// 79 since "a win in overtime or the shootout counts as a win" (p2658); 80 since "nine innings only, as for the team
// totals" is the game total's rule too (p2631); 81 since "It does not count for bets on the fourth quarter" after a
// sentence opening "the overtime counts ..." (p2647); 82 since a contract that "resolves to 'Liberty' if the Liberty win
// by more than 4 points; otherwise ... to 'Aces'" loses on the line (p2598); 83 since "a level score" is a tie and one
// that is "neither a win nor a loss" is void (p2661).
const BLIND28_RIGHT = 83;
// The twenty-ninth blind batch, development since its blind figure (53 of 71 right on the reader at c58fde4, with
// 2 wrong values): p2691's "the pick neither advances you as a win nor costs a life as a loss" (a value word in the
// member after "nor" is denied, now unknown) and p2722's "Player does not play: the sportsbook voids the bet; the
// Kalshi contract resolves No" (every clause after the label's colon speaks of its case: two values, now unknown)
// leave none wrong, no silent row read known and 53 of 71 right (measurements.md, round 41).
// 67 since a pool game "dropped from the week" (removed, thrown out of the round), "settles at $0", "is a miss",
// "your bet is cancelled", a game "won in extra innings" that "counts as a win", "marked on regulation time",
// basketball's "fourth period", "half of your assigned confidence points" and a "whole number" spread read.
// 68 since a tied game that is "neither a win nor a loss" (the pick "neither advances you as a win nor costs a life as
// a loss") is void (p2691); 70 since a pool's "side bet" (one, or "draft-day side bets") is no sides market (p2673).
const BLIND29_RIGHT = 70;
// The thirtieth blind batch, development since its blind figure (48 of 61 right on the reader at ed40c80, with
// 1 wrong value and 1 silent row read known): p2780's "it turned a loss or a win into a push" (what the result was
// before it landed on the line, no value of the push: now unknown) and p2742's standings tiebreaker "more wins
// without overtime" (a count of wins ranking teams, no settlement: now silent) leave none wrong, no silent row read
// known and 48 of 61 right (measurements.md, round 43).
// 50 since a pool's "side contest" or "side game" names no sides market.
// 51 since a player who does not play makes the pick "a loss" ("the day is lost").
// 52 since a condition after an exception ("but not the shootout, and if the player does not ...") is a statement of its own.
// 53 since a closing "More or Less" names a pick's two selections, not the total market.
// 54 since a contest's "prediction" that "is removed" for a player who does not play is a removed pick.
// 55 since a three-way line listed by its outcomes, "(1 / draw / 2)", is outside our markets as "1X2" is.
// 56 since a pool's "side pick" (one, or a "nightly side pick") is no sides market (p2737).
const BLIND30_RIGHT = 56;
// The thirty-first blind batch, development since its blind figure (58 of 71 right on the reader at 6a3274a, with
// 1 wrong value, 1 of 47 silent rows read known and one pair of opposite stated values read alike): p2795's "you score
// 0 for the week: nothing gained, nothing lost" (a landed spread neither won nor lost, now void; the pair read alike
// was it and p2796) and p2806's "it is most common to pay the final score, that is including overtime" (a hedge, now
// unknown) leave none wrong, no silent row read known and 59 of 71 right (measurements.md, round 44).
// 63 since "a player over or under his line" (a player's line), a score "125:124" (no label's colon) settled on
// "after both overtimes", a player who has "not taken the court" and "a game likely to go long" (no hedge) read;
// 64 since a contract's answers listed case by case ("Yes above the line, No at or below it, No if ...": p2812);
// 65 since a clause after a heading's colon naming another market ("Weekly over/under challenge: pick a player over or
// under his yardage line") ends the heading's market for the sentences after it (p2802).
const BLIND31_RIGHT = 65;

// The thirty-second blind batch, development since its blind figure (39 of 47 right on the reader of rounds 43-44,
// with 1 wrong value, 1 of 37 silent rows read known and one pair of opposite stated values read alike): p2887's
// "3.) Quarter with the most points: ... overtime does not count" (a market of its own, now out of a quarter total's
// scope; the pair read alike was it and p2884) and p2872's "The OT Included betting line makes so much more sense
// now" (a line's label, now unknown) leave none wrong, no silent row read known and 40 of 47 right (measurements.md,
// round 45).
// 41 since "game lines and team totals" (the game's lines beside another market) read;
// 43 since bets "accepted for the regular playing time" (p2873, p2874) read;
// 45 since "This may happen for a number of reasons; some common examples: the game wasn't played; ..." after "A void
// bet is ... a bet that has been cancelled" gives the list the sentence before's value (p2861, p2862).
const BLIND32_RIGHT = 45;

// The thirty-third blind batch, development since its blind figure (21 of 29 right on the reader of rounds 43-45,
// with 1 wrong value, no silent row read known and no pair of opposite stated values read alike): p2921's "Totals:
// settled on the official result after 9 innings ...; if extra innings are needed to complete the game, bets are
// settled on the official final result" (the final result for the case of extra innings, now included) leaves none
// wrong, no silent row read known and 22 of 29 right (measurements.md, round 46).
// 24 since "Women's NBA" (p2935, p2936) names the WNBA;
// 25 since "that's why books often hang a half point" (p2934) hedges its own claim, not the push rule before it;
// 26 since "Shootout adjustment: one goal to the shootout winner" (p2906) credits the winner a goal;
// 27 since a pool's tie for which "half the assigned point value is awarded" (p2938) pays half (round 50).
const BLIND33_RIGHT = 27;

// The thirty-fourth blind batch, development since its blind figure (53 of 63 right on the reader of rounds 43-45,
// with no wrong value, no silent row read known and no pair of opposite stated values read alike; 10 stated rows
// read unknown) (measurements.md, "The thirty-fourth blind batch, measured blind").
// 55 since markets said to be included in "all full-game markets" ("(live betting included)") are among them (p2996, p2997);
// 57 since a player who does not play "resolves his props No" (p2967, p2969);
// 58 since a survivor pick's tie that puts "you out of the pool" (p2956) reads.
const BLIND34_RIGHT = 58;

// The thirty-fifth blind batch, development since its blind figure (45 of 57 right on the reader of rounds 46-48 merged,
// with 4 wrong values, 1 of 22 silent rows read known and three pairs of opposite stated values read alike): p3020's
// and p3022's nine-inning basis followed by the case of extra innings ("..., and if extra innings are needed, on the
// official final result"), p3029's and p3030's "NHL bets are the exception to this rule: the result after regular
// playing time prevails" (the pairs read alike were theirs) and p3045's "For a fantasy manager every overtime point
// ... counts toward weekly totals" (a fantasy game, now unknown) leave none wrong, no silent row read known and 49 of
// 57 right (measurements.md, round 49).
// 50 since "the scores after overtime" count it as "the score after overtime" does (p3042).
// 51 since a contract's tie listed among its outcomes with its price ("Tie 0%") is a separate outcome (p3050).
// 52 since a survivor pool's participant who picked a team in a tied game "is eliminated" (p3040).
// 53 since a pool in which a game can be picked "to end in a tie" offers the tie as an outcome (p3038).
// 54 since a nine-inning basis extended past "(8 1/2 if the home team leads)" by "including any needed extra innings" counts them (p3023).
// 55 since a colon inside a quoted market title is part of the title and "a player market" names player props (p3056).
const BLIND35_RIGHT = 55;

// The thirty-sixth blind batch, development since its blind figure (51 of 53 right on the reader of rounds 46-49
// merged, no wrong value, 1 of 20 silent rows read known): p3102's "so the draw is calculated at the end of regulation
// time" (a market with a draw, now unknown) leaves no silent row read known and 51 of 53 right (measurements.md,
// round 50).
// 52 since an entry "settled on the remaining (valid) picks" when a player does not play voids the pick (p3104).
// 53 since a tipping contest's tip on "the result of the game after 60 minutes" leaves overtime out of its money line (p3100).
const BLIND36_RIGHT = 53;

// The thirty-seventh blind batch, development since its blind figure (38 of 53 right on the reader of rounds 46-50
// merged, no wrong value, no silent row read known, no opposite pair read alike; measurements.md, "The thirty-seventh
// blind batch, measured blind").
// 39 since a sport outside the spec listed among two of ours ("baseball, football, basketball, hockey and soccer events") leaves the statement standing for ours (p3144).
// 41 since a player who "must play for there to be action" voids the prop, and "both players and pitchers" (both ... and) names no matchup (p3139, p3140).
// 43 since a prediction market's questions that "resolve NO" when the game "is canceled or does not occur" lose, as for a player who does not play (p3121, p3122).
// 44 since a nine-inning basis extended past "(8 1/2 with the home team ahead)" by "including any extra innings" counts them (p3153).
// 45 since "if the score is level" names a tie, as "if the scores are level" does (p3163).
// 47 since a game that "must be played completely to be valid" (in full, to its conclusion; to have action, to stand) leaves a cancelled game's props without action (p3139, p3140).
const BLIND37_RIGHT = 47;

// The thirty-eighth blind batch, development since its blind figure (25 of 35 right on the reader of rounds 46-51
// merged, 1 wrong value, no silent row read known, no opposite pair read alike; measurements.md, "The thirty-eighth
// blind batch, measured blind"): its wrong value (p3190, a market's "incl. overtime" label read for the total listed
// beside it) fixed in round 52 leaves 26 of 35 right.
// 27 since a bet "declared null" is void, as one declared void is (p3190 push).
// 28 since a game that "does not start on the scheduled date or is cancelled" names a cancellation (p3186 cancellation).
// 29 since a player who "enters the court" takes part, as one who takes the court does (p3186 non_participation).
// 30 since a push that counts "neither as a win nor as a loss" is void (p3176 push).
const BLIND38_RIGHT = 30;

// The fortieth blind batch, development since its blind figure (30 of 33 right on the reader of rounds 46-52
// merged, 1 wrong value, no silent row read known, no opposite pair read alike; measurements.md, "The fortieth
// blind batch, measured blind"): its wrong value (p3226, a tie that resolves the market as 'No Contest' read as
// "No") fixed in round 54 leaves 31 of 33 right.
// 32 since a game abandoned or postponed that "fails to resume after 12 hours" (does not resume within them) names a cancellation, as one "not resumed within" them does (p3213 cancellation).
// 33 with round 53's reading merged beside it: a game that "has not been completed by" a date names a cancellation
// (p3239, half_payout).
const BLIND40_RIGHT = 33;
// The thirty-ninth blind batch, development since its blind figure (14 of 17 right on the reader of rounds 46-52
// merged, no wrong value, no silent row read known, no opposite pair read alike; measurements.md, "The thirty-ninth
// blind batch, measured blind").
// 15 since a game that "has not been completed by" a date names a cancellation, as one "not completed by" it does (p3197).
// 16 since overtime named in the plural ("results after overtimes") is what a settlement waits for and a parenthesis's
// ", not for soccer" excepts soccer, as ", but not for" does (p3207).
const BLIND39_RIGHT = 16;

// The forty-first blind batch, development since its blind figure (28 of 34 right on the reader of rounds 46-54
// merged, 2 wrong values, no silent row read known, no opposite pair read alike; measurements.md, "The forty-first
// blind batch, measured blind"). Its two wrong values are its author's judgements, left as they are in round 55
// (measurements.md): p3261 (a hockey player prop valued `excluded` as the anytime goalscorer market, which the row's
// 0.5 line does not name, against the section's "Overtime counts for all player prop markets in a game": a hand value
// disputed there) and p3241 (a football money line valued `included` from its Winner / Moneyline entry's "In the event
// of a tie after overtime all bets will be voided", which the text supports; the reader reads no overtime value from a
// tie "after overtime", and the sentence's "all bets" does not take the entry's heading, so the section's "Overtime
// will not count unless specified in the market" decides). The guard holds the wrong values to exactly these two rows, so any other wrong value fails it.
// 30 since a market heading's period list opening with "Match" ("Total (Match/Period):", "Home/Away Total (Match/Period):")
// names the full game, so its entry's "Excludes Overtime and Shootouts unless stated in the market name" is the full-game
// total's, more specific than the "Total Goals (incl. overtime and shootouts)" entry naming the market alone (p3258, p3259).
const BLIND41_RIGHT = 31;
const BLIND41_WRONG_LEFT = ['p3261'];

// The forty-second blind batch, development since its blind figure (30 of 40 right on the reader of rounds 53-55
// merged, no wrong value, 3 of 7 silent rows read known, no opposite pair read alike; measurements.md, "The
// forty-second and forty-third blind batches, measured blind"). Its silent rows read known are player props of a
// sportsbook panel's football, basketball and baseball chapters, which state overtime for "game and second half
// lines" / "game lines and 2nd half wagers" / "full game and second half wagers" only (p3278, p3284, p3289).
// p3278 and p3284 no longer since "game lines" ("All game and second half lines", "Game lines and 2nd half
// wagers") name the markets on the game's result and score, which a player prop is not. p3289's "Full game and second
// half wagers" names the full game as a period, as the "Full-game and second-half lines" valued `included` for props
// elsewhere in the corpus (p090, p765) do: left (measurements.md, round 57).
// 31 since shootouts excluded by a verb ("Include Overtime but exclude Shootouts") state nothing of overtime, as
// "excluding shootouts" does not (p3293).
// 33 since a prop that settles to "the (last) fair market price" for a player who takes no part settles his absence at
// a fair price (fair_price), as a cancelled game's does (p3266, p3267 non_participation).
// 34 since a heading of its own that is only a market of ours ("Player Props / Performances.") ends a section headed
// by live betting, so the panel's later "2-Way Money Lines (Draw No Bet). ... If the final result is a draw, then the
// wager will be refunded" is no longer read as live betting's (p3272 tie).
const BLIND42_RIGHT = 34;
const BLIND42_SILENT_KNOWN = ['p3289'];
// The forty-third blind batch, development since its blind figure (11 of 19 right on the same reader, no wrong value,
// no silent row read known, no opposite pair read alike; the same section of measurements.md).
// 12 since a boxer names a sport outside the spec and "all bets" after a semicolon that follows such a clause are
// that sport's bets ("where a boxer fails to answer the bell ...; where a decision, technical decision or technical
// draw is declared, all bets are losing bets" is no tie rule of ours; p3304 tie).
const BLIND43_RIGHT = 12;
// The forty-fourth blind batch, development since its blind figure (27 of 30 right on the reader after round 56, no
// wrong value, no opposite pair read alike; measurements.md, "The forty-fourth blind batch, measured blind"). Its one
// silent row read known is named: p3324, an NFL player prop read from a sportsbook's "Bets on the Game and 2nd
// Half-periods include points scored in overtime" (the Game period taken for the prop), the wording of p3289's kind.
const BLIND44_RIGHT = 27;
const BLIND44_SILENT_KNOWN = ['p3324'];
// The forty-fifth blind batch, development since its blind figure (15 of 20 right on the reader after round 58, no
// wrong value, no silent row read known, no opposite pair read alike; measurements.md, "The forty-fifth and forty-sixth
// blind batches, measured blind").
// 17 since a market dictionary's entry asked as a question ("Total Points: will the points both teams score be over or
// under the predicted score for regular time?") defines its market, and a score "for regular time" is on regulation
// alone (p3346, p3347 overtime).
const BLIND45_RIGHT = 17;
// The forty-sixth blind batch, development since its blind figure (6 of 15 right on the same reader, one wrong value, no
// silent row read known, no opposite pair read alike; the same section of measurements.md). Its wrong value: p3369, a
// match market's TIE token (`separate_outcome` by hand) read `void` from the catch-all token's "which resolves the market
// if the game is, say, cancelled", a cancelled game taken for the tie's consequence; none since a game cancelled named
// as a case (in a condition) gives the tie no value.
// 7 since a list of a market's outcomes in one clause after a lead-in counting them ("'Who will win the match?' has four
// tokens: TEAMA, TEAMB, TIE and NONE, ...") holding the tie as an item makes the tie a separate outcome (p3369).
// 8 since a draw that "returns every bet" (all bets, the bets, the wagers) returns the stakes, as "bets are returned" does,
// and "no way to return the bets" (a means a venue's tool lacks) states no settlement (p3370 tie).
// 9 since "resolves the market to 'No Contest'" on a tie is the corpus's "resolves to/as 'No Contest'" with its object
// said (p3362 tie).
const BLIND46_RIGHT = 9;
const BLIND46_WRONG_LEFT: string[] = [];

const m = (league: MarketScope['league'], marketType: MarketScope['marketType'], segment: MarketScope['segment'] = 'full'): MarketScope => ({ league, marketType, segment });

describe('sentences and clauses', () => {
  it('keeps "incl." and URLs inside a sentence and drops questions from the rules it reads', () => {
    expect(sentences('Winner (incl. extra innings): which team will win. Does overtime count? Rules: https://x.example/a.b')).toEqual([
      'Winner (incl. extra innings): which team will win.',
      'Rules: https://x.example/a.b',
    ]);
  });
  it('splits at ; : , but and except, and a clause takes the dimensions it does not name from the clause before', () => {
    const cs = clauses('Quarter markets are resulted on the score of the relevant quarter; overtime does not count.');
    expect(cs.map((c) => c.kind)).toEqual(['first', 'semi']);
    expect([...(cs[1].scope.segments ?? [])]).toEqual(['quarter:1', 'quarter:2', 'quarter:3', 'quarter:4']);
    expect(cs[1].own.segment).toBe(false);
  });
});

describe('scope', () => {
  it('a sentence about other periods, leagues or markets does not decide the full game', () => {
    const text = 'Overtime does not count towards any 4th quarter bets. Bets on European hockey are for regulation time only. Alternative pucklines and totals include both overtime and shootouts.';
    expect(readRule(text, 'overtime', m('nba', 'total'))).toEqual({ value: 'unknown', why: 'silent' });
    expect(readRule(text, 'overtime', m('nba', 'total', 'quarter:4'))).toMatchObject({ value: 'excluded', evidence: 'Overtime does not count towards any 4th quarter bets' });
    expect(readRule(text, 'overtime', m('nhl', 'total'))).toMatchObject({ value: 'unknown' });
  });
  it('"leagues other than the NHL" and "markets denoted Excl. OT" apply to none of the market at hand', () => {
    const hockey = 'Goals scored during overtime are included for wagers on the full game. For all leagues other than NHL, wagers are based on regulation time only.';
    expect(readRule(hockey, 'overtime', m('nhl', 'moneyline')).value).toBe('included');
    const football = 'All markets include overtime unless stated. Markets that exclude overtime are denoted using phrases such as Excl. OT.';
    expect(readRule(football, 'overtime', m('nfl', 'spread')).value).toBe('included');
  });
  it('a teaser sentence says nothing about a straight total', () => {
    expect(readRule('A two-team teaser resulting in Tie/Win is considered a push and all money is refunded.', 'push', m('nba', 'total')).value).toBe('unknown');
  });
});

describe('negation and exceptions', () => {
  it('"do not include overtime" is excluded, "include overtime" included', () => {
    expect(readRule('Second-half markets do not include overtime.', 'overtime', m('nba', 'moneyline', 'half:2')).value).toBe('excluded');
    expect(readRule('Wagers on the second half include overtime.', 'overtime', m('nba', 'moneyline', 'half:2')).value).toBe('included');
    expect(readRule("Overtime doesn't count.", 'overtime', m('nfl', 'spread')).value).toBe('excluded');
  });
  it('an exception takes its markets out and states the opposite there; a hedge does not', () => {
    const text = 'Overtime counts for all markets except those that are quarter specific.';
    expect(readRule(text, 'overtime', m('nba', 'spread')).value).toBe('included');
    expect(readRule(text, 'overtime', m('nba', 'spread', 'quarter:4')).value).toBe('excluded');
    expect(readRule('OT counts for the 2nd half, not the 4th quarter.', 'overtime', m('nba', 'total', 'quarter:4')).value).toBe('excluded');
    expect(readRule('Player prop markets will be graded including overtime, unless otherwise stated.', 'overtime', m('nba', 'player_prop')).value).toBe('included');
  });
});

describe('contradiction, silence and evidence', () => {
  it('clauses of the same scope that disagree give unknown with a description naming both', () => {
    const v = readGameLineRules('Overtime counts. Regulation time only.', 'venue_5', m('nba', 'total'));
    expect(v.overtime.value).toBe('unknown');
    expect(v.overtime.description).toContain('contradicts itself');
    expect(v.overtime.description).toContain('"Overtime counts" (included)');
    expect(v.overtime.evidence_url).toBeUndefined();
  });
  it('the more specific clause wins over the general one', () => {
    expect(readRule('All wagers include overtime. Wagers on fourth quarters do not include overtime scoring.', 'overtime', m('wnba', 'spread', 'quarter:4')).value).toBe('excluded');
  });
  it('never infers a value from silence, and a 50-50 payout is not a refund', () => {
    expect(readRule('Bets are void if the game does not start on the scheduled day.', 'non_participation', m('mlb', 'player_prop')).value).toBe('unknown');
    expect(readRule('If the game is canceled entirely, with no make-up game, this market will resolve 50-50.', 'cancellation', m('nba', 'player_prop')).value).toBe('half_payout');
    expect(readRule('If the game is canceled, postponed, or never begins, all related props are voided.', 'cancellation', m('mlb', 'player_prop')).value).toBe('void');
  });
  it('paraphrases map to the same value', () => {
    for (const s of ['The result will be determined based on the final score including any overtime periods.', 'The second half includes over time.', 'The outcome is the final result of the match, extra innings count.'])
      expect(readRule(s, 'overtime', m('mlb', 'moneyline', s.includes('second') ? 'half:2' : 'full')).value).toBe('included');
    expect(readRule('If a game ends in a tie after all regulation and overtime periods, the market will resolve to $0.50 for each team.', 'tie', m('nfl', 'moneyline')).value).toBe('half_payout');
    expect(readRule('Player Prop wagers are deemed no action and voided if the applicable player does not participate in the event.', 'non_participation', m('nba', 'player_prop')).value).toBe('void');
    expect(readRule('If the player is listed as out, the market resolves to No.', 'non_participation', m('nba', 'player_prop')).value).toBe('loses');
  });
  it('a known value quotes its clause and carries the rules page', () => {
    const v = readGameLineRules('Goals scored during OT are included for bets on the full game, but are not included on bets for the 3rd period. Rules: https://v.example/r', 'venue_7', m('nhl', 'total'));
    expect(v.overtime).toEqual({ value: 'included', description: 'venue_7: "Goals scored during OT are included for bets on the full game"', evidence_url: 'https://v.example/r' });
  });
});

describe('headings, qualifiers, lists and sides', () => {
  it('a heading scopes the sentences under it until the next heading', () => {
    const text = 'Overtime counts for all markets unless otherwise stated. Quarter and half markets: for bets based on the specific quarters or halves, the entire period of play must be played for bets to stand. Overtime is not included. Double Result (half time/full time): bets are settled on the score at half time and full time (excluding any overtime).';
    expect(readRule(text, 'overtime', m('nfl', 'total', 'quarter:4'))).toMatchObject({ value: 'excluded', evidence: 'Overtime is not included' });
    expect(readRule(text, 'overtime', m('nfl', 'spread', 'half:2')).value).toBe('excluded');
    expect(readRule(text, 'overtime', m('nfl', 'total')).value).toBe('included');
  });
  it('a question is the heading of its answer', () => {
    const text = 'All markets include Overtime unless stated. What is a 60 Minute Line in Hockey? This market is where you are wagering on the outcome of the game at the end of regulation time only (60 minutes), as this does not include overtime.';
    expect(readRule(text, 'overtime', m('nhl', 'moneyline'))).toMatchObject({ value: 'included', evidence: 'All markets include Overtime' });
  });
  it('a sub-heading that names no league stays in its league section', () => {
    const text = 'Football betting rules: NFL games are official after 55 minutes of play. Washington 40, Dallas -7: exactly 40 points would be a push or a tie and all money would be refunded on total wagers. Basketball betting rules: overtime periods are included as part of the wager on full game and half time wagers.';
    expect(readRule(text, 'push', m('nfl', 'total')).value).toBe('void');
    expect(readRule(text, 'push', m('mlb', 'total')).value).toBe('unknown');
  });
  it('a withdrawing qualifier states nothing and still claims its scope', () => {
    const text = 'Totals: unless otherwise stated, overtime counts toward totals and team totals. Quarter wagers require the specified quarter to be completed; fourth-quarter wagers usually exclude overtime unless stated.';
    expect(readRule(text, 'overtime', m('nfl', 'total', 'quarter:4'))).toMatchObject({ value: 'unknown', why: 'hedged' });
    expect(readRule(text, 'overtime', m('nfl', 'total')).value).toBe('included');
    expect(readRule('The simple answer is that much more often than not, the overtime period counts.', 'overtime', m('nba', 'moneyline')).value).toBe('unknown');
    expect(readGameLineRules(text, 'venue_7', m('nfl', 'total', 'quarter:4')).overtime).toEqual({
      value: 'unknown',
      description: 'The venue_7 rules text only qualifies overtime for this market ("fourth-quarter wagers usually exclude overtime"), it does not state it.',
    });
  });
  it('a comma list of markets and periods holds each of them', () => {
    const text = 'Overtime counts towards sides, totals, moneylines, 2nd half wagers.';
    expect(readRule(text, 'overtime', m('nfl', 'moneyline')).value).toBe('included');
    expect(readRule(text, 'overtime', m('nfl', 'spread', 'half:2')).value).toBe('included');
    expect(readRule(text, 'overtime', m('nfl', 'team_total')).value).toBe('unknown');
  });
  it('a lead-in gives its value to the list after it and states nothing on its own', () => {
    const text = 'Unless otherwise stated in the market name (e.g. Including Overtime), overtime does not count for: quarter markets (1st, 2nd, 3rd, 4th Quarter); Half-time Result and 1st Half markets.';
    expect(readRule(text, 'overtime', m('nfl', 'moneyline', 'quarter:4')).value).toBe('excluded');
    expect(readRule(text, 'overtime', m('nfl', 'moneyline')).value).toBe('unknown');
  });
  it('a clause about one side of a market settles nothing; the over or under names both', () => {
    expect(readRule('In the event of a draw, if the bet is on the favorite, you would lose half of your bet.', 'tie', m('nfl', 'moneyline')).value).toBe('unknown');
    expect(readRule('Every sportsbook will cancel your bet if the player is inactive, whether you bet the over or under.', 'non_participation', m('nfl', 'player_prop')).value).toBe('void');
  });
});

describe('failure classes of the blind batch (now development)', () => {
  it('paraphrases: "part of the wager", "taken into account", "settled with regular time score", "in regulation, overtime, and shootout"', () => {
    expect(readRule('Unless the bet terms express otherwise, overtime is part of the wager.', 'overtime', m('nhl', 'moneyline')).value).toBe('included');
    expect(readRule('Totals are accepted taking into account the overtime.', 'overtime', m('nfl', 'total')).value).toBe('included');
    expect(readRule('Rates on a quarter: the overtime is not taken into account.', 'overtime', m('nfl', 'spread', 'quarter:4')).value).toBe('excluded');
    expect(readRule('Extra time periods: all markets are settled with regular time score unless indicated otherwise.', 'overtime', m('nhl', 'moneyline')).value).toBe('excluded');
    expect(readRule('Over/Under markets resolve based on combined total goals scored in regulation, overtime, and shootout periods.', 'overtime', m('nhl', 'total')).value).toBe('included');
    expect(readRule('Possible extra innings are not considered in any market unless otherwise stated.', 'overtime', m('mlb', 'moneyline')).value).toBe('excluded');
  });
  it('a heading naming a market outside the spec scopes its sentence away from ours', () => {
    expect(readRule('Highest Scoring Half: both halves of play must be completed; overtime does not count.', 'overtime', m('nba', 'total', 'half:2')).value).toBe('unknown');
    expect(readRule('Correct Score (NHL): graded on the score after 60 minutes; overtime does not count.', 'overtime', m('nhl', 'moneyline')).value).toBe('unknown');
  });
  it('a live-betting heading says nothing about pre-game markets', () => {
    expect(readRule('Live/In-Game Betting: prices quoted are for the whole game inclusive of any overtime played unless otherwise stated.', 'overtime', m('nfl', 'spread')).value).toBe('unknown');
  });
  it('"unless a different game period is specified" takes no market out', () => {
    const text = 'Extra time periods: bets are accepted for regular time including possible overtime, unless a different game period is specified in the name of a market.';
    expect(readRule(text, 'overtime', m('nba', 'moneyline')).value).toBe('included');
    expect(readRule(text, 'overtime', m('nba', 'total')).value).toBe('included');
  });
  it('an exception that only defers to other rules ("unless these rules or the market say otherwise", "except where stated otherwise") takes no market out', () => {
    const a = 'Ice hockey: every bet is graded on the final score including overtime, unless these hockey rules or the market description state otherwise.';
    expect(readRule(a, 'overtime', m('nhl', 'moneyline')).value).toBe('included');
    expect(readRule(a, 'overtime', m('nhl', 'total')).value).toBe('included');
    const b = 'Baseball: totals include extra innings, except where the market name or these baseball rules specify otherwise.';
    expect(readRule(b, 'overtime', m('mlb', 'total')).value).toBe('included');
    // An exception that names its market still takes it out.
    const c = 'Basketball: every bet is graded on the final score including overtime, except quarter bets.';
    expect(readRule(c, 'overtime', m('nba', 'total', 'quarter:4')).value).not.toBe('included');
    expect(readRule(c, 'overtime', m('nba', 'total')).value).toBe('included');
  });
  it('a heading of settlement ("Settlement: ...") ends a section of definitions; one whose entry opens with an article still defines the term', () => {
    const text = 'Definition: a prop predicts one statistic of one athlete, whatever the result of the game. Settlement: props are graded on the official box score, so points scored in overtime count toward the total.';
    expect(readRule(text, 'overtime', m('nba', 'player_prop')).value).toBe('included');
    const glossary = 'Definitions: a prop predicts one statistic of one athlete. Settlement: the grading of a bet; points scored in overtime count toward the total.';
    expect(readRule(glossary, 'overtime', m('nba', 'player_prop')).value).toBe('unknown');
  });
  it('an absolute phrase closing a statement about every market ("all bets include overtime, the fourth quarter and second half included") names markets among them, not its only scope', () => {
    const text = 'Basketball: all wagers count overtime, the first half and fourth quarter included.';
    expect(readRule(text, 'overtime', m('nba', 'moneyline')).value).toBe('included');
    expect(readRule(text, 'overtime', m('nba', 'total', 'quarter:4')).value).toBe('included');
    // Without "all" the named periods are the statement's scope.
    expect(readRule('Basketball: wagers count overtime, the first half and fourth quarter included.', 'overtime', m('nba', 'moneyline')).value).not.toBe('included');
  });
  it('"only <what> counts" after a denied value ("fourth-quarter wagers exclude overtime, only the fourth quarter itself counts") restates it; it is no second value', () => {
    expect(readRule('Fourth-quarter wagers exclude overtime, only the fourth quarter itself counts.', 'overtime', m('nba', 'total', 'quarter:4')).value).toBe('excluded');
    expect(readRule('4th quarter lines do not count overtime, only the final twelve minutes count.', 'overtime', m('nba', 'spread', 'quarter:4')).value).toBe('excluded');
  });
  it('", while <market> <value>" is a statement of its own after a clause stating no value ("..., so a tie keeps your second-half bet alive, while the fourth-quarter line does not count overtime")', () => {
    const text = 'Here the second-half line counts overtime, so a game level after four quarters keeps your second-half bet alive, while the fourth-quarter total does not count overtime.';
    expect(readRule(text, 'overtime', m('nba', 'spread', 'half:2')).value).toBe('included');
    expect(readRule(text, 'overtime', m('nba', 'total', 'quarter:4')).value).toBe('excluded');
  });
  it('"a team favoured by 7" names the point spread, beside a total named in the same clause', () => {
    const text = 'With no half point, a line can land exactly: a team favored by 7 that wins by exactly 7, or a total of 41 that finishes on 41, is a push, and the bet is refunded.';
    expect(readRule(text, 'push', m('nfl', 'spread')).value).toBe('void');
    expect(readRule(text, 'push', m('nfl', 'total')).value).toBe('void');
  });
  it('a consequence drawn with "so" and hedged ("..., overtime included, so a game that goes to overtime often goes over") hedges its own claim, not the statement before it', () => {
    const text = 'How a total is graded: add both teams\' points at the final whistle, overtime included, so a game that reaches overtime often goes over the line.';
    expect(readRule(text, 'overtime', m('nba', 'total')).value).toBe('included');
  });
  it('a list of market names holds each named market and no other', () => {
    const text = 'Markets that include overtime: Full Game Handicap, Full Game Total, Full Game Winner (Draw no Bet), Odd/Even. Markets that do not include overtime: 1x2, Team Totals, Alternate Team Totals, 1st Period Wagers.';
    expect(readRule(text, 'overtime', m('nhl', 'team_total')).value).not.toBe('included');
    expect(readRule(text, 'overtime', m('nhl', 'moneyline')).value).toBe('included');
    expect(readRule(text, 'overtime', m('nhl', 'total')).value).toBe('included');
  });
  it('a touchdown-scorer rule is not a player prop rule', () => {
    const text = 'First/last touchdown scorer: the player must play more than the first second in the match for bets to be valid, otherwise bets will be void.';
    expect(readRule(text, 'non_participation', m('nfl', 'player_prop')).value).toBe('unknown');
  });
  it('a bare "Push rules apply." after a head-to-head sentence speaks of head-to-head bets, not the game lines', () => {
    const text = "Head to Head and Over/Under bets involving one or more players' performance in the game are considered valid given that all listed players take part in the game at some stage for bets to stand. Both players must compete in one Down. Push rules apply.";
    expect(readRule(text, 'push', m('nfl', 'spread')).value).toBe('unknown');
    expect(readRule(text, 'push', m('nfl', 'total')).value).toBe('unknown');
    expect(readRule('In 2-Way markets Push rules apply, unless otherwise stated.', 'push', m('nfl', 'spread')).value).toBe('void');
  });
  it('a full-game tie rule does not reach a first-half line', () => {
    const text = 'Moneyline (Raptors vs. Rockets): resolves to the team with the higher final score; if tied, resolves 50-50. First-half markets: determined by halftime score only, not final score.';
    expect(readRule(text, 'tie', m('nba', 'moneyline', 'half:1')).value).toBe('unknown');
    expect(readRule(text, 'tie', m('nfl', 'moneyline')).value).toBe('half_payout');
  });
  it('a sentence naming another market ends a market heading for the sentences after it', () => {
    const text = 'Totals: totals usually require nine innings. Extra innings count toward totals. Player props may require the player to start or appear, depending on the prop. Extra innings count unless the market states otherwise.';
    expect(readRule(text, 'overtime', m('mlb', 'player_prop')).value).toBe('included');
    expect(readRule(text, 'overtime', m('mlb', 'total')).value).toBe('included');
  });
  it('the same sentence naming one of our leagues and a league outside the spec still holds ours', () => {
    expect(readRule('Overtime is included in the settlement of NHL / NCAA.', 'overtime', m('nhl', 'moneyline')).value).toBe('included');
    expect(readRule('Overtime is not included in the settlement of AHL / CHL / ECHL.', 'overtime', m('nhl', 'moneyline')).value).toBe('unknown');
  });
});

describe('conflicting evidence: opposite rules are never read alike', () => {
  it('an exception that states its own value is read as stated, not turned into the opposite', () => {
    const text = 'Quarter and half markets: the entire period of play must be played unless the result is already determined, except 2nd half markets which do include overtime if played. Overtime does not count on quarter or half specific markets.';
    const r = readRule(text, 'overtime', m('nfl', 'spread', 'half:2'));
    expect(r.value).toBe('unknown');
    expect(r.why).toBe('contradiction');
  });
  it('two texts with opposite stated overtime rules read differently', () => {
    const a = readRule('Markets do not consider overtime unless expressly stated otherwise.', 'overtime', m('nba', 'moneyline'));
    const b = readRule('Extra time periods: bets are accepted for regular time including possible overtime, unless a different game period is specified in the name of a market.', 'overtime', m('nba', 'moneyline'));
    expect(a.value).toBe('excluded');
    expect(b.value).toBe('included');
  });
});

describe('failure classes of the second blind batch (sentences written for these tests)', () => {
  it('hedged guide sentences state nothing: "in most cases", "for most", "is normally", "you should expect", "as with most"', () => {
    expect(readRule('In most cases, spreads and totals will include overtime.', 'overtime', m('nba', 'spread'))).toMatchObject({ value: 'unknown', why: 'hedged' });
    expect(readRule('For most standard markets, extra innings are counted.', 'overtime', m('mlb', 'total')).value).toBe('unknown');
    expect(readRule('Overtime is normally included in full-game totals.', 'overtime', m('nba', 'total')).value).toBe('unknown');
    expect(readRule('You should expect player props to count overtime too.', 'overtime', m('nhl', 'player_prop')).value).toBe('unknown');
    // "normally" after the verb describes how a bet is graded, not how sure the writer is.
    const graded = 'Player props are graded normally once the player takes the court. If the player does not play, the prop is void.';
    expect(readRule(graded, 'non_participation', m('nba', 'player_prop')).value).toBe('void');
  });
  it('a hedged "this is the case at most books" takes back the statement it refers to, in its sentence or the next', () => {
    expect(readRule('Full-game totals include overtime; that is the case at most sportsbooks.', 'overtime', m('nfl', 'total'))).toMatchObject({ value: 'unknown', why: 'hedged' });
    expect(readRule('Moneylines include overtime. This is usually the case across leagues.', 'overtime', m('nhl', 'moneyline'))).toMatchObject({ value: 'unknown', why: 'hedged' });
    expect(readRule('Moneylines include overtime. This rule holds for every league.', 'overtime', m('nhl', 'moneyline')).value).toBe('included');
  });
  it('a hedged sentence naming the rule only inside a condition claims nothing; an indirect question states nothing', () => {
    const text = 'Most of the time, if a wager excludes overtime, it is a quarter wager. Fourth-quarter bets do not include overtime.';
    expect(readRule(text, 'overtime', m('nba', 'total', 'quarter:4')).value).toBe('excluded');
    expect(readRule(text, 'overtime', m('nba', 'total')).value).toBe('unknown');
    expect(readRule('Check the event page to confirm whether the total counts extra innings.', 'overtime', m('mlb', 'total')).value).toBe('unknown');
    expect(readRule('The wager is void if the player is inactive, whether you took the over or the under.', 'non_participation', m('nba', 'player_prop')).value).toBe('void');
  });
  it('paraphrases of overtime: a parenthetical "overtime included", regulation and overtime listed together, "until the conclusion of extra innings", a shootout goal added to the winner', () => {
    expect(readRule('The over/under covers the combined points of both teams (overtime included).', 'overtime', m('nfl', 'total')).value).toBe('included');
    expect(readRule('The winner is the team ahead after regulation, overtime or a shootout.', 'overtime', m('nhl', 'moneyline')).value).toBe('included');
    expect(readRule('Runs are not tallied until the conclusion of extra innings.', 'overtime', m('mlb', 'total')).value).toBe('included');
    expect(readRule('Totals: if a shootout decides the game, one goal is added to the winning side for the total.', 'overtime', m('nhl', 'total')).value).toBe('included');
    expect(readRule('Overtime is disregarded for fourth-quarter bets.', 'overtime', m('nba', 'total', 'quarter:4')).value).toBe('excluded');
    expect(readRule('Overtime is not part of any quarter wager.', 'overtime', m('nba', 'spread', 'quarter:4')).value).toBe('excluded');
  });
  it('paraphrases of push, tie and non-participation', () => {
    expect(readRule('When the final margin equals the spread, that results in a push.', 'push', m('nfl', 'spread')).value).toBe('void');
    expect(readRule('If the total lands exactly on the number, the bettor gets their wager back.', 'push', m('nfl', 'total')).value).toBe('void');
    // A push named as a possibility says nothing of how it settles.
    expect(readRule('Whole-number totals can push.', 'push', m('nfl', 'total')).value).toBe('unknown');
    expect(readRule('Whole-number lines can result in a push when the margin lands on them.', 'push', m('nfl', 'spread')).value).toBe('unknown');
    expect(readRule('If the game ends level, the moneyline is a lost bet.', 'tie', m('nfl', 'moneyline')).value).toBe('loses');
    expect(readRule('Any player who logs zero minutes has their props voided.', 'non_participation', m('nba', 'player_prop')).value).toBe('void');
    expect(readRule('If the goalie does not receive ice time, bets are refunded.', 'non_participation', m('nhl', 'player_prop')).value).toBe('void');
    expect(readRule('Should the player not appear on the court, the prop is settled as a loss.', 'non_participation', m('wnba', 'player_prop')).value).toBe('loses');
  });
  it('a sentence about the final score speaks of the whole game, not of the market heading above it', () => {
    const headed = 'Spread (Home -3.5): home covers by winning by 4 or more. Overtime is included in the final score.';
    expect(readRule(headed, 'overtime', m('nba', 'total')).value).toBe('included');
    expect(readRule(headed, 'overtime', m('nba', 'spread')).value).toBe('included');
    // Without the final score the sentence stays under the heading.
    expect(readRule('Spread (Home -3.5): home covers by winning by 4 or more. Overtime is included.', 'overtime', m('nba', 'total')).value).toBe('unknown');
    // A market the sentence names itself stays its scope.
    expect(readRule('Moneyline markets are settled on the final score, including overtime.', 'overtime', m('nba', 'total')).value).toBe('unknown');
  });
  it('"this applies only to markets which include overtime" scopes the statement before it away from ours', () => {
    const text = "In a shootout, one goal is added to the winning team's total; this applies only to markets which include overtime. All markets are settled on regulation time only unless stated.";
    expect(readRule(text, 'overtime', m('nhl', 'total')).value).toBe('excluded');
    const away = 'One goal is added to the winning team in a shootout. This does not apply to markets that exclude overtime.';
    expect(readRule(away, 'overtime', m('nhl', 'total')).value).toBe('unknown');
    // "markets that exclude overtime" names markets; it is no statement that they exclude it.
    expect(readRule('Markets that exclude overtime carry a note in their name.', 'overtime', m('nhl', 'total')).value).toBe('unknown');
  });
  it('a full-game sentence is no narrower than a player-prop sentence for a player prop', () => {
    const text = 'All full-game wagers include overtime. Props: as with most bets, a prop stays live into overtime.';
    expect(readRule(text, 'overtime', m('nfl', 'player_prop'))).toMatchObject({ value: 'unknown', why: 'hedged' });
    expect(readRule(text, 'overtime', m('nfl', 'spread')).value).toBe('included');
  });
  it('a tie sentence that mentions overtime states no overtime rule', () => {
    const text = 'If a game ends tied after overtime, it is considered a push.';
    expect(readRule(text, 'overtime', m('nfl', 'moneyline'))).toEqual({ value: 'unknown', why: 'silent' });
    expect(readRule(text, 'tie', m('nfl', 'moneyline')).value).toBe('void');
  });
});

describe('scope and negation in wording the corpus has not shown (sentences written for these tests)', () => {
  it('a contrast names other markets: "unlike full-game wagers, first-half wagers do not include overtime"', () => {
    const text = 'Unlike full-game wagers, first-half wagers do not include overtime.';
    expect(readRule(text, 'overtime', m('nba', 'spread'))).toEqual({ value: 'unknown', why: 'silent' });
    expect(readRule(text, 'overtime', m('nba', 'spread', 'half:1')).value).toBe('excluded');
  });
  it('a clause about some or certain markets states nothing for any one market', () => {
    expect(readRule('Some bets include overtime and some do not.', 'overtime', m('nba', 'spread')).value).toBe('unknown');
    expect(readRule('Certain markets exclude overtime.', 'overtime', m('nhl', 'total')).value).toBe('unknown');
    // "some" inside the clause is no subject: the refund stays stated.
    expect(readRule('If a game is cancelled for good, your bet is refunded. Refunds for some bets can take a few days.', 'cancellation', m('nba', 'player_prop')).value).toBe('void');
  });
  it('", but not for X", "markets other than X" and "X are the exception" take X out and state the opposite there', () => {
    const butNot = 'Overtime counts, but not for quarter bets.';
    expect(readRule(butNot, 'overtime', m('nba', 'total')).value).toBe('included');
    expect(readRule(butNot, 'overtime', m('nba', 'total', 'quarter:1')).value).toBe('excluded');
    const otherThan = 'Overtime: included in all markets other than quarters and the 1st half.';
    expect(readRule(otherThan, 'overtime', m('nba', 'spread', 'half:1')).value).toBe('excluded');
    expect(readRule(otherThan, 'overtime', m('nba', 'spread')).value).toBe('included');
    // "leagues other than" stays a league complement.
    expect(readRule('For leagues other than the NHL, overtime does not count.', 'overtime', m('nhl', 'total')).value).toBe('unknown');
    const exception = 'Overtime counts. Quarter bets are the exception.';
    expect(readRule(exception, 'overtime', m('nba', 'spread', 'quarter:3')).value).toBe('excluded');
    expect(readRule(exception, 'overtime', m('nba', 'spread')).value).toBe('included');
  });
  it('a clause naming its own period leaves the period outside the spec named before it', () => {
    const text = 'Overtime does not count towards 3rd period bets; full game bets include overtime.';
    expect(readRule(text, 'overtime', m('nhl', 'total')).value).toBe('included');
    expect(readRule('Extra innings do not count for first five innings bets.', 'overtime', m('mlb', 'total')).value).toBe('unknown');
  });
  it('guide talk about the rule is no statement of it: questions in passing, beliefs, "not all"', () => {
    for (const text of [
      'Knowing whether overtime counts is important.',
      'Many people assume overtime counts for everything.',
      'Not all sportsbooks include overtime.',
      'Check your book rules to see if overtime is included.',
      'Sportsbooks differ on whether overtime is included in props.',
    ])
      expect(readRule(text, 'overtime', m('nba', 'player_prop')).value).toBe('unknown');
    expect(readRule('Overtime counts whether or not the game was tied late.', 'overtime', m('nba', 'total')).value).toBe('included');
    expect(readRule('Bets are graded on which team leads at halftime or whether the score is level, a tie being its own outcome.', 'tie', m('nba', 'moneyline', 'half:1')).value).toBe('separate_outcome');
  });
  it('scope words name their plurals; "otherwise" speaks of the clause before it; "no overtime on" excludes', () => {
    expect(readRule('Run lines and totals include extra innings.', 'overtime', m('mlb', 'spread')).value).toBe('included');
    expect(readRule('Player props require the player to play; otherwise they are void.', 'non_participation', m('nba', 'player_prop')).value).toBe('void');
    expect(readRule('No overtime on 4th-quarter wagers.', 'overtime', m('nfl', 'spread', 'quarter:4')).value).toBe('excluded');
    expect(readRule('No overtime on 4th-quarter wagers.', 'overtime', m('nfl', 'spread')).value).toBe('unknown');
  });
});

describe('failure classes of the third blind batch (sentences written for these tests)', () => {
  it('commas inside parentheses list examples of one item, not alternatives', () => {
    const text = 'Bets on the whole game (spreads, totals and moneylines) and on the 2nd half count overtime.';
    expect(readRule(text, 'overtime', m('nba', 'total')).value).toBe('included');
    expect(readRule(text, 'overtime', m('nba', 'spread', 'half:2')).value).toBe('included');
    // The parenthesis does not reach a period it does not name.
    expect(readRule(text, 'overtime', m('nba', 'total', 'quarter:4')).value).toBe('unknown');
  });
  it('regular time with a parenthetical before "only", and "regulation and any overtime", are read', () => {
    const regular = 'Every hockey wager is graded on regular time (three periods) only.';
    expect(readRule(regular, 'overtime', m('nhl', 'total')).value).toBe('excluded');
    const any = 'This contract pays Yes if Boston has more goals after regulation and any overtime played.';
    expect(readRule(any, 'overtime', m('nhl', 'moneyline')).value).toBe('included');
  });
  it('a parenthesis that puts a period into a list ("the 4th quarter included") states nothing about overtime', () => {
    const text = 'Period bets (the last quarter included) exclude overtime scoring.';
    expect(readRule(text, 'overtime', m('nba', 'spread', 'quarter:4')).value).toBe('excluded');
    const only = 'Quarter lines (the 4th quarter included) follow the house rules.';
    expect(readRule(only, 'overtime', m('nba', 'spread', 'quarter:4')).value).toBe('unknown');
  });
  it('a quoted regulation-time variant of a market is another market', () => {
    const text = "Totals: overtime counts. 'Regulation Time' totals exclude overtime.";
    expect(readRule(text, 'overtime', m('nfl', 'total')).value).toBe('included');
    const innings = "Player props: see below. 'Regulation 9 Innings' markets leave out extra innings.";
    expect(readRule(innings, 'overtime', m('mlb', 'player_prop')).value).toBe('unknown');
  });
  it('"virtually all" and "almost all" withdraw the statement', () => {
    expect(readRule('At virtually all books, full-game totals include overtime.', 'overtime', m('nba', 'total')).value).toBe('unknown');
    expect(readRule('Almost all sportsbooks count extra innings on run lines.', 'overtime', m('mlb', 'spread')).value).toBe('unknown');
  });
  it('a player who does not take to the ice, must take at least one shift, or whose pick is removed', () => {
    expect(readRule('Should a skater not take to the ice, his props are void.', 'non_participation', m('nhl', 'player_prop')).value).toBe('void');
    expect(readRule('The receiver must take at least one snap, or the wager is no action.', 'non_participation', m('nfl', 'player_prop')).value).toBe('void');
    expect(readRule('A player with no playing time sees the pick is removed from the card.', 'non_participation', m('wnba', 'player_prop')).value).toBe('void');
  });
  it('cancellation: abandoned and not completed, a heading naming canceled games, picks treated as DNP', () => {
    expect(readRule('Should a contest be abandoned and not completed by the next day, open bets are void.', 'cancellation', m('nba', 'player_prop')).value).toBe('void');
    expect(readRule('Canceled hockey games: player bets are void unless the game is replayed the same week.', 'cancellation', m('nhl', 'player_prop')).value).toBe('void');
    expect(readRule('When the game is cancelled, every pick on it is treated as DNP.', 'cancellation', m('nba', 'player_prop')).value).toBe('void');
    // A postponement that is not replayed in time is no cancellation wording.
    expect(readRule('A postponed game not played within two days makes all bets void.', 'cancellation', m('nba', 'player_prop')).value).toBe('unknown');
  });
  it('the comma closing an opening condition ends the condition, not a list item; a tie after overtime is the full game', () => {
    const text = 'If a football game is still tied after overtime, moneyline bets are graded no action.';
    expect(readRule(text, 'tie', m('nfl', 'moneyline')).value).toBe('void');
    expect(readRule(text, 'tie', m('nfl', 'moneyline', 'quarter:4')).value).toBe('unknown');
  });
  it('an elliptical "X wagers do not" denies the sentence before it, and only a statement', () => {
    const text = 'Full-game totals count overtime. First-half totals do not.';
    expect(readRule(text, 'overtime', m('nba', 'total', 'half:1')).value).toBe('excluded');
    expect(readRule(text, 'overtime', m('nba', 'total')).value).toBe('included');
    expect(readRule('Quarter lines are posted daily. Fourth-quarter lines do not.', 'overtime', m('nba', 'total', 'quarter:4')).value).toBe('unknown');
  });
  it('"the end of the second quarter" is halftime: a halftime-leader market, not the second quarter alone', () => {
    const text = 'Should the score be even at the end of the 2nd quarter, the contract resolves to Tie.';
    expect(readRule(text, 'tie', m('nba', 'moneyline', 'half:1')).value).toBe('separate_outcome');
    expect(readRule(text, 'tie', m('nba', 'moneyline', 'quarter:2')).value).toBe('unknown');
  });
  it('"when that happens" carries the subject of the sentence before it, and only when that sentence has it', () => {
    const text = 'Sometimes the final total falls exactly on the posted number. In that case the book refunds your stake.';
    expect(readRule(text, 'push', m('nfl', 'total')).value).toBe('void');
    expect(readRule('New lines are posted at noon. When that happens, the book refunds your stake on old tickets.', 'push', m('nfl', 'total')).value).toBe('unknown');
  });
  it('a period that ends "with the scores level" is a tie', () => {
    const text = 'If a quarter ends with the scores level, quarter moneyline bets are refunded.';
    expect(readRule(text, 'tie', m('nba', 'moneyline', 'quarter:2')).value).toBe('void');
  });
});

describe('numbered sections, opening "unless", tie outcomes and markets offered on their own', () => {
  it('a section number on its own ("4.") ends no sentence', () => {
    expect(sentences('House Rules. 4. Level games are void. 12. Props need a snap.')).toEqual(['House Rules.', '4. Level games are void.', '12. Props need a snap.']);
  });
  it('a section number does not turn the opening "unless" into an exception that carries the whole sentence', () => {
    const text = "4.2 Unless a bet is marked 'Regular Time', every basketball wager (sides, totals and moneylines) is graded on the final score with overtime included. 4.3 Third-quarter bets count only third-quarter points; overtime points will not be credited to the third quarter.";
    expect(readRule(text, 'overtime', m('nba', 'spread'))).toMatchObject({ value: 'included' });
    expect(readRule(text, 'overtime', m('nba', 'total', 'quarter:3'))).toMatchObject({ value: 'excluded', evidence: 'overtime points will not be credited to the third quarter' });
    // The markets the opening condition names are left out by it, not the statement's scope.
    expect(clauses(text.split('. ')[0])[0].scope.blocking).toBe(false);
  });
  it('"credited" to a winner is no statement that overtime counts', () => {
    const text = 'A match-winning shootout goal is credited to the winning side for settlement.';
    expect(readRule(text, 'overtime', m('nhl', 'total'))).toEqual({ value: 'unknown', why: 'silent' });
  });
  it('a tie outcome that resolves Yes is a separate outcome, though the team outcomes resolve No', () => {
    const text = 'Three contracts trade: Hawks, Nets and Tie. Should the score be level after four quarters, Tie resolves to Yes while Hawks and Nets resolve to No.';
    expect(readRule(text, 'tie', m('nba', 'moneyline', 'quarter:4')).value).toBe('separate_outcome');
    const twoWay = 'If the scores are tied when time runs out, both contracts resolve to No.';
    expect(readRule(twoWay, 'tie', m('nba', 'moneyline', 'half:1')).value).toBe('loses');
  });
  it('"X wagers, including A, B and C" names the X wagers meant, not alternatives to them', () => {
    const text = 'All full-game bets, including spreads, totals and moneylines, are graded with overtime counted.';
    expect(readRule(text, 'overtime', m('nba', 'total')).value).toBe('included');
    expect(readRule(text, 'overtime', m('nba', 'player_prop'))).toEqual({ value: 'unknown', why: 'silent' });
    // Without the elaboration the list is one of alternatives, and each holds.
    const list = 'Overtime counts for full-game spreads, totals, and second-half wagers.';
    expect(readRule(list, 'overtime', m('nba', 'spread', 'half:2')).value).toBe('included');
  });
  it('overtime "added to" a period, "plus any overtime", an extra inning and "toward the total" of a player', () => {
    expect(readRule('Any overtime period is added to the fourth quarter for quarter betting.', 'overtime', m('nfl', 'total', 'quarter:4')).value).toBe('included');
    expect(readRule('Overtime is not added to the second half.', 'overtime', m('nba', 'spread', 'half:2')).value).toBe('excluded');
    expect(readRule('Prop grading uses regulation play plus any overtime.', 'overtime', m('nhl', 'player_prop')).value).toBe('included');
    expect(readRule('Hits in an extra inning count.', 'overtime', m('mlb', 'player_prop')).value).toBe('included');
    expect(readRule('Assists in overtime count towards the total.', 'overtime', m('nba', 'player_prop')).value).toBe('included');
  });
  it('a tie "as its own selection", a game that "concludes level", a line "equals the line", and a pick "treated as a DNP"', () => {
    expect(readRule('On first-half money lines the tie is settled as its own selection.', 'tie', m('nba', 'moneyline', 'half:1')).value).toBe('separate_outcome');
    expect(readRule('When a game concludes level, money line bets are no action.', 'tie', m('nfl', 'moneyline')).value).toBe('void');
    // The verb's other forms state the same push ("equal", "equals the posted line").
    expect(readRule('Should the run total equal the line, the bet is refunded.', 'push', m('mlb', 'total')).value).toBe('void');
    expect(readRule('If the number of points equals the line, money is refunded.', 'push', m('nba', 'total')).value).toBe('void');
    expect(readRule('A skater who sits in the press box is treated as a DNP and the leg drops off.', 'non_participation', m('nhl', 'player_prop')).value).toBe('void');
  });
  it('"including" before a list of markets says which markets, not that overtime is included', () => {
    const text = 'Every other hockey market, including puck lines and team totals, is graded on sixty minutes, and goals in overtime do not count for it.';
    expect(readRule(text, 'overtime', m('nhl', 'spread'))).toMatchObject({ value: 'excluded' });
    expect(readRule('Team totals are settled including overtime.', 'overtime', m('nhl', 'team_total')).value).toBe('included');
  });
  it('", so ..." draws a consequence: the periods it lists are not the statement\'s scope, and it keeps the topic before it', () => {
    const text = 'Overtime is added to the second half here, so a second-half line covers the third quarter, the fourth quarter and any overtime. Fourth-quarter lines never count overtime.';
    expect(readRule(text, 'overtime', m('nba', 'spread', 'half:2')).value).toBe('included');
    expect(readRule(text, 'overtime', m('nba', 'spread', 'quarter:4'))).toMatchObject({ value: 'excluded', evidence: 'Fourth-quarter lines never count overtime' });
    expect(readRule('Being level is no lead, so the contract resolves No.', 'tie', m('nba', 'moneyline', 'half:1')).value).toBe('unknown');
    expect(readRule('A tie at the break is no lead, so the contract resolves No.', 'tie', m('nba', 'moneyline', 'half:1')).value).toBe('loses');
  });
  it('an exception for a variant whose title reads otherwise is another market, and a short follow-up speaks of the rule, not of that exception', () => {
    const text = "Player props settle on regulation time only. Overtime stats never count unless the prop title reads 'incl. OT'. Scratched players = void.";
    expect(readRule(text, 'overtime', m('nhl', 'player_prop'))).toMatchObject({ value: 'excluded' });
    expect(readRule(text, 'non_participation', m('nhl', 'player_prop')).value).toBe('void');
  });
  it('a heading naming "cancelled events" gives its topic to the rule after its colon', () => {
    const text = 'Abandoned or cancelled events: if a fixture is not finished within 36 hours, every wager on it is void.';
    expect(readRule(text, 'cancellation', m('mlb', 'player_prop')).value).toBe('void');
  });
  it('an exception naming a market offered on its own does not take the market at hand out', () => {
    const text = "Match totals count overtime points unless the wager was struck on the 'Regulation Total', which is listed separately.";
    expect(readRule(text, 'overtime', m('nfl', 'total'))).toMatchObject({ value: 'included' });
  });
});

describe('a final-score sentence and a game not played (hand values decided against the rule definitions)', () => {
  it('a sentence about the final score states no overtime rule for a player prop, which settles on a statistic', () => {
    const result = 'The winner is decided on the final score, overtime periods included.';
    expect(readRule(result, 'overtime', m('nba', 'moneyline')).value).toBe('included');
    expect(readRule(result, 'overtime', m('nba', 'player_prop'))).toMatchObject({ value: 'unknown', why: 'silent' });
    // A clause that names the markets it means holds a full-game prop among them, and one under a
    // player-prop heading speaks of props.
    expect(readRule('Full-game markets count every overtime period in the final score.', 'overtime', m('nba', 'player_prop')).value).toBe('included');
    expect(readRule('Player props: the final score includes overtime.', 'overtime', m('nfl', 'player_prop')).value).toBe('included');
    // "This market" is the market the text is published on, a prop included.
    expect(readRule('If the game is called off with no make-up date, this market resolves 50-50.', 'cancellation', m('nfl', 'player_prop')).value).toBe('half_payout');
  });
  it('a game not played (within a window or at all) states cancellation; a postponed game not played in time does not', () => {
    expect(readRule('Game not played within 48 hrs of tip-off: all player bets void.', 'cancellation', m('nba', 'player_prop')).value).toBe('void');
    expect(readRule('If the contest is not played, the contract settles at the last fair price.', 'cancellation', m('mlb', 'player_prop')).value).toBe('fair_price');
    expect(readRule('Should the event never be played, stakes are refunded.', 'cancellation', m('nhl', 'player_prop')).value).toBe('void');
    expect(readRule('If the game is postponed and not played within 48 hours, the market is void.', 'cancellation', m('nba', 'player_prop')).value).toBe('unknown');
    expect(readRule('If the player has not played a snap, the bet is void.', 'cancellation', m('nfl', 'player_prop')).value).toBe('unknown');
  });
});

describe('answers, labels and tables (sentences written for these tests)', () => {
  it('a bare Yes or No answers the question before it with the value the question names, or its negation', () => {
    expect(readRule('Does overtime count? Yes.', 'overtime', m('nba', 'total'))).toMatchObject({ value: 'included', evidence: 'Does overtime count? Yes' });
    expect(readRule('Q: Do extra innings count toward run lines? A: No.', 'overtime', m('mlb', 'spread')).value).toBe('excluded');
    expect(readRule('Q: Do extra innings count toward run lines? A: No.', 'overtime', m('mlb', 'total')).value).toBe('unknown');
    expect(readRule('Is overtime excluded from totals? No, it is not.', 'overtime', m('nhl', 'total')).value).toBe('included');
    // A question that names no value asks about the game, not the rule; "Yes/No" names a market's outcomes.
    expect(readRule('Will the game go to OT? Yes.', 'overtime', m('nba', 'total')).value).toBe('unknown');
    expect(readRule('Does overtime count? Yes/No markets are listed below.', 'overtime', m('nba', 'total')).value).toBe('unknown');
    // The asker's situation scopes the answer: one side of a total settles nothing.
    expect(readRule('Q: I bet the under. Does overtime count? A: Yes.', 'overtime', m('nba', 'total')).value).toBe('unknown');
  });
  it('the answer to a short question naming the rule speaks of it; a long question names the rule among other things', () => {
    expect(readRule('Ties? Each side of the contract settles at $0.50.', 'tie', m('nfl', 'moneyline')).value).toBe('half_payout');
    expect(readRule('Overtime? Not counted on any line.', 'overtime', m('nba', 'total')).value).toBe('excluded');
    expect(readRule('If my skater scores in the shootout after overtime, what happens? Player markets do not include shootout goals.', 'overtime', m('nhl', 'player_prop')).value).toBe('unknown');
  });
  it('a label and its answer: "Overtime included: No" states the negation, "Overtime: Yes" the rule\'s yes', () => {
    expect(readRule('Overtime included: No', 'overtime', m('nba', 'total')).value).toBe('excluded');
    expect(readRule('Overtime counts: Yes', 'overtime', m('nba', 'total')).value).toBe('included');
    expect(readRule('OT: No', 'overtime', m('nhl', 'total')).value).toBe('excluded');
    // A label that says something else about overtime is not the rule's label.
    expect(readRule('Live betting in overtime: Yes', 'overtime', m('nba', 'total')).value).toBe('unknown');
    expect(readRule('Cash out during OT: No', 'overtime', m('nba', 'total')).value).toBe('unknown');
  });
  it('flattened table rows: cells split by "|" are clauses of one row, and a line end ends a row', () => {
    const rows = 'Market: Full Game Total | Overtime: Yes\nMarket: 4th Quarter Spread | Overtime: No';
    expect(readRule(rows, 'overtime', m('nba', 'total')).value).toBe('included');
    expect(readRule(rows, 'overtime', m('nba', 'spread', 'quarter:4')).value).toBe('excluded');
    const table = 'Market | Includes OT | Push\n|---|---|---|\nMoneyline | Yes | -\n4th Quarter | No | Refund';
    expect(readRule(table, 'overtime', m('nfl', 'moneyline')).value).toBe('included');
    expect(readRule(table, 'overtime', m('nfl', 'spread', 'quarter:4')).value).toBe('excluded');
    expect(readRule(table, 'push', m('nfl', 'spread', 'quarter:4')).value).toBe('void');
  });
});

describe('paraphrase classes the corpus has not shown (sentences written for these tests)', () => {
  it('overtime: "into consideration", "exclusive of", the regulation result; ML names the moneyline; OT is overtime in every phrase', () => {
    expect(readRule('Extra periods are not taken into consideration for any wager.', 'overtime', m('nhl', 'total')).value).toBe('excluded');
    expect(readRule('Overtime is taken into consideration.', 'overtime', m('nhl', 'total')).value).toBe('included');
    expect(readRule('Second-half lines are exclusive of OT.', 'overtime', m('nba', 'spread', 'half:2')).value).toBe('excluded');
    // "Settled on regulation" is left out: "settled on regulation play plus any OT" counts overtime.
    expect(readRule('Player specials are settled on regulation play plus any OT.', 'overtime', m('nhl', 'player_prop')).value).toBe('included');
    expect(readRule('All lines are decided on the regulation result.', 'overtime', m('nhl', 'total')).value).toBe('excluded');
    const ml = 'ML bets include OT; totals exclude it.';
    expect(readRule(ml, 'overtime', m('nba', 'moneyline')).value).toBe('included');
    expect(readRule(ml, 'overtime', m('nba', 'total')).value).toBe('excluded');
  });
  it('tie: half paid ("pays half", "50%", "50 cents") is no half of the game; "settles No"; teams level', () => {
    expect(readRule('A drawn game pays half.', 'tie', m('nfl', 'moneyline'))).toMatchObject({ value: 'half_payout' });
    expect(readRule('In case of a tie the moneyline pays out 50%.', 'tie', m('nfl', 'moneyline')).value).toBe('half_payout');
    expect(readRule('If the game ends tied, each share is worth 50 cents.', 'tie', m('nfl', 'moneyline')).value).toBe('half_payout');
    expect(readRule('Should the teams be level after overtime, the contract settles No.', 'tie', m('nfl', 'moneyline')).value).toBe('loses');
  });
  it('push: "pushed", the result equal to or matching the line, "pushes lose", "settles No"', () => {
    expect(readRule('Pushed wagers are refunded.', 'push', m('nfl', 'total')).value).toBe('void');
    expect(readRule('If the final margin equals the quoted spread, stakes are returned.', 'push', m('nfl', 'spread')).value).toBe('void');
    expect(readRule('Where the score matches the posted line, bets are void.', 'push', m('nba', 'total')).value).toBe('void');
    expect(readRule('Pushes lose on this exchange.', 'push', m('nba', 'total')).value).toBe('loses');
    expect(readRule('If the total lands on the number, the contract settles No.', 'push', m('nba', 'total')).value).toBe('loses');
  });
  it('non-participation: "not feature", a late scratch, "must see the floor", not dressed, "non-participation", "for wagers to stand"', () => {
    expect(readRule('If the athlete does not feature at all, bets are void.', 'non_participation', m('nba', 'player_prop')).value).toBe('void');
    expect(readRule('A late scratch voids the prop.', 'non_participation', m('nhl', 'player_prop')).value).toBe('void');
    expect(readRule('The player must see the floor, otherwise wagers are refunded.', 'non_participation', m('nba', 'player_prop')).value).toBe('void');
    expect(readRule('Skaters who are not dressed: no action.', 'non_participation', m('nhl', 'player_prop')).value).toBe('void');
    expect(readRule('Non-participation results in a refund.', 'non_participation', m('nfl', 'player_prop')).value).toBe('void');
    expect(readRule('The receiver must play one down for wagers to stand.', 'non_participation', m('nfl', 'player_prop')).value).toBe('void');
    expect(readRule('If the player is ruled out, the market settles No.', 'non_participation', m('nba', 'player_prop')).value).toBe('loses');
  });
  it('overtime that does not "factor into" a line, a game "ending level", a result that is "a loser", a player who "never takes the" court', () => {
    expect(readRule('Overtime does not factor into fourth-quarter lines.', 'overtime', m('nba', 'spread', 'quarter:4')).value).toBe('excluded');
    expect(readRule('A money line on a game ending level is refunded.', 'tie', m('nfl', 'moneyline')).value).toBe('void');
    expect(readRule('When the total lands on the line, the over is a loser and so is the under.', 'push', m('nba', 'total')).value).toBe('loses');
    expect(readRule('If the guard never takes the court, the prop is void.', 'non_participation', m('nba', 'player_prop')).value).toBe('void');
    expect(readRule('Cancelled matches: player markets resolve 50/50.', 'cancellation', m('nhl', 'player_prop')).value).toBe('half_payout');
    expect(readRule('If the game never takes place, wagers are refunded.', 'cancellation', m('nhl', 'player_prop')).value).toBe('void');
  });
  it('a line the result "ends on", and "refunds" as a verb', () => {
    expect(readRule('If the spread ends on the number, the ticket is a loser.', 'push', m('nfl', 'spread')).value).toBe('loses');
    expect(readRule('The book refunds money-line stakes when a game ends in a tie.', 'tie', m('nfl', 'moneyline')).value).toBe('void');
  });
  it('cancellation: a game scrapped, that does not take place or does not happen; "voiding"', () => {
    expect(readRule('If the match is scrapped, the market resolves 50-50.', 'cancellation', m('nba', 'player_prop')).value).toBe('half_payout');
    expect(readRule('Should the event not take place, all props are void.', 'cancellation', m('nfl', 'player_prop')).value).toBe('void');
    expect(readRule('If the game does not happen at all, the contract is voided.', 'cancellation', m('mlb', 'player_prop')).value).toBe('void');
    expect(readRule('A cancellation leads to the voiding of player bets.', 'cancellation', m('nba', 'player_prop')).value).toBe('void');
    // A postponed game that does not take place in time is postponement wording.
    expect(readRule('If a postponed game does not take place within 36 hours, bets are void.', 'cancellation', m('nba', 'player_prop')).value).toBe('unknown');
  });
});

describe('forms of the same words (sentences written for these tests)', () => {
  it('OT is overtime inside every phrase, and SO in capitals is the shootout', () => {
    expect(readRule('Results are based on regular time plus OT.', 'overtime', m('nhl', 'moneyline')).value).toBe('included');
    expect(readRule('Handicap (Excl. OT): the spread is settled on regulation.', 'overtime', m('nba', 'spread')).value).toBe('unknown');
    expect(readRule('Moneyline: regulation, OT and SO all count.', 'overtime', m('nhl', 'moneyline')).value).toBe('included');
    // "so" in lower case is the word.
    expect(readRule('The puck line is settled on regulation time only, so overtime goals are ignored.', 'overtime', m('nhl', 'spread')).value).toBe('excluded');
  });
  it('"fifty-fifty" and "fifty percent" are the 50-50 payout', () => {
    expect(readRule('If the game is canceled entirely, the market resolves fifty-fifty.', 'cancellation', m('nba', 'player_prop')).value).toBe('half_payout');
    expect(readRule('A tied game pays fifty percent of the winnings.', 'tie', m('nfl', 'moneyline')).value).toBe('half_payout');
  });
  it('"&" is "and"; "returned" is a refund; a regulation-time market is outside whatever its noun', () => {
    expect(readRule('Full-game lines are settled on regulation & overtime.', 'overtime', m('nba', 'total')).value).toBe('included');
    expect(readRule('If the player does not play, the stake is returned.', 'non_participation', m('nba', 'player_prop')).value).toBe('void');
    expect(readRule('Regular time wagers exclude overtime. All other wagers include overtime.', 'overtime', m('nhl', 'total')).value).toBe('included');
  });
  it('a bullet opens a sentence of its own', () => {
    const text = 'Hockey props \u2022 OT stats count \u2022 Shootout stats do not count \u2022 Scratched skater: void';
    expect(readRule(text, 'overtime', m('nhl', 'player_prop')).value).toBe('included');
    expect(readRule(text, 'non_participation', m('nhl', 'player_prop')).value).toBe('void');
    expect(readRule('Game lines \u2022 4th quarter bets exclude overtime \u2022 All other bets include it', 'overtime', m('nba', 'total', 'quarter:4')).value).toBe('excluded');
  });
});

describe('exceptions and denied subjects in other words (sentences written for these tests)', () => {
  it('"with the exception of", "save for", "apart from" and "other than" a market take it out', () => {
    expect(readRule('With the exception of fourth-quarter lines, every wager includes overtime.', 'overtime', m('nba', 'spread', 'quarter:4')).value).toBe('excluded');
    expect(readRule('With the exception of fourth-quarter lines, every wager includes overtime.', 'overtime', m('nba', 'total')).value).toBe('included');
    expect(readRule('Overtime counts on every line save for third-quarter and fourth-quarter lines.', 'overtime', m('wnba', 'total', 'quarter:4')).value).toBe('excluded');
    expect(readRule('Overtime counts for each basketball bet apart from quarter bets.', 'overtime', m('nba', 'total', 'quarter:4')).value).toBe('excluded');
    expect(readRule('Every market counts overtime other than fourth-quarter markets.', 'overtime', m('nba', 'spread', 'quarter:4')).value).toBe('excluded');
  });
  it('a denied subject denies the value: "none of", "no ... points", "in neither ... nor"', () => {
    expect(readRule('None of the hockey lines include overtime.', 'overtime', m('nhl', 'total')).value).toBe('excluded');
    expect(readRule('On fourth-quarter bets no overtime points count.', 'overtime', m('nba', 'total', 'quarter:4')).value).toBe('excluded');
    expect(readRule('Overtime is counted in neither quarter nor half markets.', 'overtime', m('nba', 'spread', 'half:2')).value).toBe('excluded');
    // A "no" inside a condition denies nothing.
    expect(readRule('When no bet is pending, overtime counts.', 'overtime', m('nba', 'total')).value).toBe('included');
    // The value's subject is the last mention of the rule before it.
    expect(readRule('As there is no overtime in baseball, extra innings count toward run totals.', 'overtime', m('mlb', 'total')).value).toBe('included');
  });
});

describe('safety classes of the fifth blind batch: no value read from words about something else (sentences written for these tests)', () => {
  it('"team points" names the team-total market, so its sentence does not decide a game total', () => {
    const text = 'Team points: overtime is counted in full.';
    expect(readRule(text, 'overtime', m('nba', 'total'))).toEqual({ value: 'unknown', why: 'silent' });
    expect(readRule(text, 'overtime', m('nba', 'team_total'))).toMatchObject({ value: 'included' });
  });
  it('"partial-game" names the halves and quarters, not the full game', () => {
    const text = 'Partial-game props never count overtime. If a player sits out, partial-game picks are voided.';
    expect(readRule(text, 'overtime', m('nba', 'player_prop'))).toEqual({ value: 'unknown', why: 'silent' });
    expect(readRule(text, 'non_participation', m('nba', 'player_prop'))).toEqual({ value: 'unknown', why: 'silent' });
    expect(readRule(text, 'overtime', m('nba', 'player_prop', 'half:1'))).toMatchObject({ value: 'excluded' });
  });
  it('markets said to be on another page are not the ones the text covers', () => {
    const text = 'This sheet lists derivative lines only; full-game spreads are on a separate page and include OT.';
    expect(readRule(text, 'overtime', m('nfl', 'spread'))).toEqual({ value: 'unknown', why: 'silent' });
  });
  it('"the second included" after a comma names a period, and "not added to any half" excludes overtime', () => {
    const text = 'Extra time is never added to any half, the second included.';
    expect(readRule(text, 'overtime', m('nfl', 'total', 'half:2'))).toMatchObject({ value: 'excluded' });
    expect(readRule('OT scoring is not added to any quarter.', 'overtime', m('nba', 'total', 'quarter:4'))).toMatchObject({ value: 'excluded' });
  });
  it('a clause that carries the topic in and "counts only" something of its own says nothing of the topic counting', () => {
    const text = "Overtime is beside the point: the team total counts only the home side's points.";
    expect(readRule(text, 'overtime', m('nba', 'team_total'))).toEqual({ value: 'unknown', why: 'silent' });
  });
  it('a sentence naming its own period under a heading about a market outside the spec speaks of that period', () => {
    const text = 'Our NFL three-way line is a market with three outcomes: home, away or tie. Fourth-quarter bets exclude overtime.';
    expect(readRule(text, 'overtime', m('nfl', 'total', 'quarter:4'))).toMatchObject({ value: 'excluded', evidence: 'Fourth-quarter bets exclude overtime' });
    expect(readRule(text, 'overtime', m('nfl', 'moneyline'))).toEqual({ value: 'unknown', why: 'silent' });
  });
  it('a hedged reason ("usually because the player did not play") claims no scope: the rule stated after it is read', () => {
    const text = 'Why was my ticket voided? Usually because the player did not play. A pick on a player who does not play is voided.';
    expect(readRule(text, 'non_participation', m('nba', 'player_prop'))).toMatchObject({ value: 'void', evidence: 'A pick on a player who does not play is voided' });
    expect(readRule('A player who does not play usually has his picks voided.', 'non_participation', m('nba', 'player_prop'))).toMatchObject({ value: 'unknown', why: 'hedged' });
  });
  it('"counting overtime" is the word form of "counts overtime"', () => {
    expect(readRule('Resolves Yes if she grabs 10 or more rebounds, counting overtime.', 'overtime', m('wnba', 'player_prop'))).toMatchObject({ value: 'included' });
    expect(readRule('Resolves Yes if she grabs 10 or more rebounds, not counting overtime.', 'overtime', m('wnba', 'player_prop')).value).not.toBe('included');
  });
  it('"at the end of regulation" opening a clause tells when something happens, not what is settled', () => {
    expect(readRule('At the end of regulation the teams change ends and the captains meet.', 'overtime', m('nfl', 'moneyline'))).toEqual({ value: 'unknown', why: 'silent' });
    expect(readRule('Moneylines are graded at the end of regulation.', 'overtime', m('nfl', 'moneyline'))).toMatchObject({ value: 'excluded' });
  });
});

describe('failure classes of the sixth blind batch (sentences written for these tests)', () => {
  it('names overtime in translated wording: extended play, extended playing time, prolongation', () => {
    expect(readRule('Every bet on the match counts extended play.', 'overtime', m('nhl', 'moneyline'))).toMatchObject({ value: 'included' });
    expect(readRule('Quarter bets leave extended playing time aside and do not include it.', 'overtime', m('nba', 'total', 'quarter:4'))).toMatchObject({ value: 'excluded' });
    expect(readRule('Prolongations are counted in totals.', 'overtime', m('nhl', 'total'))).toMatchObject({ value: 'included' });
  });
  it('reads "settled with overtime" as included unless a word after it takes it out, and "leaves overtime out" / "plays no part" as excluded', () => {
    expect(readRule('Spreads are decided on the final result with any extra time.', 'overtime', m('nba', 'spread'))).toMatchObject({ value: 'included' });
    expect(readRule('Spreads are decided on the final result with extra time excluded.', 'overtime', m('nba', 'spread'))).toMatchObject({ value: 'excluded' });
    expect(readRule('This contract leaves any overtime out.', 'overtime', m('nba', 'moneyline', 'half:2'))).toMatchObject({ value: 'excluded' });
    expect(readRule('In quarter lines overtime plays no part.', 'overtime', m('nba', 'total', 'quarter:4'))).toMatchObject({ value: 'excluded' });
  });
  it("reads the shootout winner's goal as overtime counting, whatever the order, and a winning side is no market", () => {
    expect(readRule('After a shootout the victor is credited with one goal.', 'overtime', m('nhl', 'total'))).toMatchObject({ value: 'included' });
    expect(readRule('A shootout gives the winning side one goal on the total.', 'overtime', m('nhl', 'total'))).toMatchObject({ value: 'included' });
    expect(readRule('The club that wins the shootout has one goal added to its tally.', 'overtime', m('nhl', 'team_total'))).toMatchObject({ value: 'included' });
    expect(readRule('The winner of the opening faceoff gets possession.', 'overtime', m('nhl', 'total'))).toEqual({ value: 'unknown', why: 'silent' });
  });
  it('takes statistical totals, fantasy points and stat words as player props, and goals per team as team totals', () => {
    expect(readRule('Stat totals take in extra innings.', 'overtime', m('mlb', 'player_prop'))).toMatchObject({ value: 'included' });
    expect(readRule('Stat totals take in extra innings.', 'overtime', m('mlb', 'total')).value).toBe('unknown');
    expect(readRule('Fantasy points count overtime.', 'overtime', m('nfl', 'player_prop'))).toMatchObject({ value: 'included' });
    expect(readRule('Rebounds exclude overtime.', 'overtime', m('nba', 'player_prop'))).toMatchObject({ value: 'excluded' });
    expect(readRule('Runs per team include extra innings.', 'overtime', m('mlb', 'team_total'))).toMatchObject({ value: 'included' });
  });
  it('denies with "never do", drops an appositive that defines a market, and reads a parenthesis opening with a condition as a case', () => {
    expect(readRule('Half lines include overtime; quarter lines never do.', 'overtime', m('nfl', 'total', 'quarter:4'))).toMatchObject({ value: 'excluded' });
    expect(readRule('Second-half lines, the sum of the third and 4th quarters, include overtime.', 'overtime', m('nba', 'total', 'quarter:4')).value).toBe('unknown');
    expect(readRule('Second-half lines, made up of the 3rd and 4th quarters, include overtime.', 'overtime', m('nba', 'total', 'half:2'))).toMatchObject({ value: 'included' });
    expect(readRule('Moneylines are graded on the final score, overtime included (if no overtime is played, they are graded on regulation).', 'overtime', m('nba', 'moneyline'))).toMatchObject({ value: 'included' });
  });
  it('reads a statement said to hold for every market for markets it did not name, and drops an example naming a sport', () => {
    expect(readRule('The shootout winner gets one goal on the game total, and this applies to all markets.', 'overtime', m('nhl', 'team_total'))).toMatchObject({ value: 'included' });
    expect(readRule('Picks on a player who does not play are voided (a hockey skater with no ice time counts as not playing).', 'non_participation', m('nfl', 'player_prop'))).toMatchObject({ value: 'void' });
    expect(readRule('Picks on a player who does not play are voided (hockey only).', 'non_participation', m('nfl', 'player_prop')).value).toBe('unknown');
  });
  it('reads cancellation with no make-up game or not completed within a window, and no-play as void; a suspended game is not a cancelled one', () => {
    expect(readRule('If the match is called off with no make-up date, all picks are refunded.', 'cancellation', m('nba', 'player_prop'))).toMatchObject({ value: 'void' });
    expect(readRule('A contest not completed by the end of its scheduled day becomes a no-play.', 'cancellation', m('nfl', 'player_prop'))).toMatchObject({ value: 'void' });
    expect(readRule('A suspended game not completed within a day voids open props.', 'cancellation', m('mlb', 'player_prop')).value).toBe('unknown');
  });
  it('reads lineup wording and a least unit of play as taking part, and a position word names its sport', () => {
    expect(readRule('Batters missing from the official lineup have their props voided.', 'non_participation', m('mlb', 'player_prop'))).toMatchObject({ value: 'void' });
    expect(readRule('A receiver must be on the field for at least one snap for action.', 'non_participation', m('nfl', 'player_prop'))).toMatchObject({ value: 'void' });
    expect(readRule('A hitter not on the lineup card is a no-play.', 'non_participation', m('nba', 'player_prop')).value).toBe('unknown');
    expect(readRule('A hitter not on the lineup card is a no-play.', 'non_participation', m('mlb', 'player_prop'))).toMatchObject({ value: 'void' });
  });
  it('reads a tie outcome named with its case, a case question answered, and both sides of a total pushing', () => {
    expect(readRule('Home if the home team leads, Away if the away team leads, Tie if level at the break.', 'tie', m('nba', 'moneyline', 'half:1'))).toMatchObject({ value: 'separate_outcome' });
    expect(readRule('The result is a tie if the teams are level.', 'tie', m('nba', 'moneyline', 'half:1')).value).toBe('unknown');
    expect(readRule('And if it is still tied after overtime? Moneyline wagers are voided.', 'tie', m('nfl', 'moneyline'))).toMatchObject({ value: 'void' });
    expect(readRule('Should exactly 7 runs be scored, over and under tickets are both a push.', 'push', m('mlb', 'total', 'full'))).toMatchObject({ value: 'void' });
  });
});

describe('classes a set written after the sixth batch\'s fixes showed (sentences written for these tests)', () => {
  it('reads "regular playing time" as regulation and extensions as overtime', () => {
    expect(readRule('Quarter markets refer to the regular playing time of that quarter.', 'overtime', m('nba', 'spread', 'quarter:4'))).toMatchObject({ value: 'excluded' });
    expect(readRule('Totals refer to regular playing time plus extensions.', 'overtime', m('nba', 'total')).value).not.toBe('excluded');
    expect(readRule('Game bets count any extensions.', 'overtime', m('nba', 'moneyline'))).toMatchObject({ value: 'included' });
  });
  it('does not read a value said of the shootout as one said of overtime', () => {
    expect(readRule('Skater points props (incl. OT, excl. shootouts).', 'overtime', m('nhl', 'player_prop'))).toMatchObject({ value: 'included' });
  });
  it("reads a pick dropped from the lineup as void, and a handicap applied leaving a draw as a push", () => {
    expect(readRule('If your player does not play, the pick is dropped from your entry.', 'non_participation', m('nba', 'player_prop'))).toMatchObject({ value: 'void' });
    expect(readRule('If the margin with the spread applied is a tie, stakes are returned.', 'push', m('nfl', 'spread'))).toMatchObject({ value: 'void' });
  });
});

describe('clause readings that generalize: polarity, scope past a period, scoped answers, reference back (sentences written for these tests)', () => {
  it('a value word denied in its own verb group states nothing for a rule with no opposite value', () => {
    expect(readRule('Props on a scratched player are not voided.', 'non_participation', m('nba', 'player_prop'))).toEqual({ value: 'unknown', why: 'silent' });
    expect(readRule('When the run total matches the line, the wager is neither refunded nor voided.', 'push', m('mlb', 'total'))).toEqual({ value: 'unknown', why: 'silent' });
    expect(readRule('If the contest is called off, there is no refund.', 'cancellation', m('nfl', 'moneyline'))).toEqual({ value: 'unknown', why: 'silent' });
    expect(readRule('A spread that lands on the number is never refunded; it is graded as a loss.', 'push', m('nfl', 'spread')).value).not.toBe('void');
    // The denied word gives way to the value the clause does state.
    expect(readRule('A spread that lands on the number is not refunded but graded as a loss.', 'push', m('nfl', 'spread'))).toMatchObject({ value: 'loses' });
    // A negation that belongs to the case before the value denies nothing.
    expect(readRule('If the player does not dress, the prop is voided.', 'non_participation', m('nhl', 'player_prop'))).toMatchObject({ value: 'void' });
  });
  it('a period after "after", "beyond" or "past" names the time past it, not that period', () => {
    const text = 'Overtime always goes toward totals, so points scored after the fourth quarter are added to the total.';
    expect(readRule(text, 'overtime', m('nba', 'total', 'quarter:4'))).toEqual({ value: 'unknown', why: 'silent' });
    expect(readRule(text, 'overtime', m('nba', 'total'))).toMatchObject({ value: 'included' });
  });
  it('a label answered market by market gives each market its own answer', () => {
    const text = 'Includes overtime: yes for second-half bets, no for fourth-quarter bets.';
    expect(readRule(text, 'overtime', m('nfl', 'spread', 'half:2'))).toMatchObject({ value: 'included', evidence: 'Includes overtime: yes for second-half bets' });
    expect(readRule(text, 'overtime', m('nfl', 'spread', 'quarter:4'))).toMatchObject({ value: 'excluded', evidence: 'Includes overtime: no for fourth-quarter bets' });
    expect(readRule('OT: no for period bets, yes for full-game bets.', 'overtime', m('nhl', 'total'))).toMatchObject({ value: 'included' });
  });
  it('"when they do" inside a sentence refers to the case the clause before told', () => {
    expect(readRule('Totals can land exactly on the number; when they do, stakes are returned.', 'push', m('nba', 'total'))).toMatchObject({ value: 'void' });
  });
  it('a denied form of taking part names the player case, and "nothing to do with" leaves overtime out', () => {
    expect(readRule('Props on a player who never appeared are no action.', 'non_participation', m('nba', 'player_prop'))).toMatchObject({ value: 'void' });
    expect(readRule('If the forward never dressed, the prop is refunded.', 'non_participation', m('nhl', 'player_prop'))).toMatchObject({ value: 'void' });
    // A game that is not played is a cancellation, not a player who does not take part.
    expect(readRule('If the game is not played, bets are void.', 'non_participation', m('nba', 'player_prop'))).toEqual({ value: 'unknown', why: 'silent' });
    expect(readRule('Extra periods have nothing to do with period bets.', 'overtime', m('nhl', 'total', 'quarter:4'))).toMatchObject({ value: 'excluded' });
  });
  it('a regulation basis extended right after by overtime is one statement that overtime counts, not two that disagree', () => {
    const text = 'Game bets are decided on the score at the end of regulation time, any overtime included.';
    expect(readRule(text, 'overtime', m('nba', 'total'))).toMatchObject({ value: 'included' });
    // A denial after the basis is a statement of its own, and agrees with it.
    expect(readRule('Totals are settled on regulation time; overtime is not included.', 'overtime', m('nhl', 'total'))).toMatchObject({ value: 'excluded' });
  });
  it('a value verb whose object is denied right after it ("include neither", "include no") is denied', () => {
    expect(readRule('Moneylines include no overtime.', 'overtime', m('nhl', 'moneyline'))).toMatchObject({ value: 'excluded' });
    expect(readRule('Our hockey lines include neither overtime nor the shootout.', 'overtime', m('nhl', 'total'))).toMatchObject({ value: 'excluded' });
  });
  it('", and <market> <statement>" after a statement is a statement of its own, whose subject takes nothing from the first', () => {
    const text = 'Quarter bets are settled on regulation time, and totals include overtime.';
    expect(readRule(text, 'overtime', m('nba', 'spread', 'quarter:4'))).toMatchObject({ value: 'excluded' });
    expect(readRule(text, 'overtime', m('nba', 'total'))).toMatchObject({ value: 'included', evidence: 'totals include overtime' });
    const pronoun = 'Moneylines include overtime, and quarter lines exclude it.';
    expect(readRule(pronoun, 'overtime', m('nba', 'moneyline'))).toMatchObject({ value: 'included' });
    expect(readRule(pronoun, 'overtime', m('nba', 'spread', 'quarter:4'))).toMatchObject({ value: 'excluded' });
  });
  it('a stake that comes back, is given back or is got back is a refund, and a denied one is none', () => {
    expect(readRule('If the margin equals the spread, your stake comes back.', 'push', m('nfl', 'spread'))).toMatchObject({ value: 'void' });
    expect(readRule('Should the player sit out, you get your stake back.', 'non_participation', m('nba', 'player_prop'))).toMatchObject({ value: 'void' });
    expect(readRule('If the margin equals the spread, you do not get your money back.', 'push', m('nfl', 'spread'))).toEqual({ value: 'unknown', why: 'silent' });
  });
  it('a league named by an opening "except" is the one the statement leaves out', () => {
    const text = 'Except in the WNBA, totals are for regulation only.';
    expect(readRule(text, 'overtime', m('wnba', 'total'))).toEqual({ value: 'unknown', why: 'silent' });
    expect(readRule(text, 'overtime', m('nba', 'total'))).toMatchObject({ value: 'excluded' });
    // An exception after the statement still takes its league out of it.
    expect(readRule('All totals include overtime except in the NHL.', 'overtime', m('nhl', 'total'))).toMatchObject({ value: 'excluded' });
  });
});

describe('safety classes of the seventh blind batch: no value read from words about something else (sentences written for these tests)', () => {
  it('a non-runner names no league: the clause keeps the scope it has', () => {
    expect(clauses('A scratched forward is treated as a non-runner.')[0].scope.complement).toBe(false);
    const text = 'All bets include overtime. A scratched forward is treated as a non-runner; extra periods do not count.';
    expect(readRule(text, 'overtime', m('nhl', 'total'))).toMatchObject({ value: 'unknown', why: 'contradiction' });
  });
  it('a first-goalscorer market, named in a heading or a question, is not one of ours', () => {
    expect(readRule('Every bet includes overtime. First goalscorer: overtime goals do not count.', 'overtime', m('nhl', 'moneyline'))).toMatchObject({ value: 'included' });
    expect(readRule('Every bet includes overtime. Who scores the first goal? Goals in overtime do not count.', 'overtime', m('nhl', 'moneyline'))).toMatchObject({ value: 'included' });
  });
  it('double chance, 1X2 and points-range markets are outside the spec, even listed beside a total', () => {
    const text = 'Totals include overtime unless stated. The 1X2, Total Goals Range and Double Chance markets do not include overtime.';
    expect(readRule(text, 'overtime', m('nhl', 'total'))).toMatchObject({ value: 'included' });
    expect(readRule('Double chance bets are settled on regulation time only.', 'overtime', m('nba', 'moneyline'))).toEqual({ value: 'unknown', why: 'silent' });
  });
  it('3x3 and streetball are another game: their overtime rule is not the five-a-side game\'s', () => {
    expect(readRule('For streetball events overtime does not count.', 'overtime', m('nba', 'moneyline'))).toEqual({ value: 'unknown', why: 'silent' });
    expect(readRule('In 3x3 games overtime is not included.', 'overtime', m('wnba', 'total'))).toEqual({ value: 'unknown', why: 'silent' });
  });
  it('"..., but only in markets that include overtime" restricts the statement before it to those markets', () => {
    const text = 'Goals scored in overtime count towards team totals, but only in markets that include overtime.';
    expect(readRule(text, 'overtime', m('nhl', 'team_total'))).toEqual({ value: 'unknown', why: 'silent' });
  });
  it('a clause naming markets or the final score and no period does not decide overtime for a quarter line', () => {
    const text = 'All wagers on the spread and the total include overtime scoring.';
    expect(readRule(text, 'overtime', m('nba', 'total', 'quarter:4'))).toEqual({ value: 'unknown', why: 'silent' });
    expect(readRule('Bets are won and lost on the final score, overtime included.', 'overtime', m('nfl', 'moneyline', 'quarter:4'))).toEqual({ value: 'unknown', why: 'silent' });
    // A clause naming no market speaks of the market the text is published on.
    expect(readRule('Overtime points are never counted.', 'overtime', m('nba', 'total', 'quarter:4'))).toMatchObject({ value: 'excluded' });
    expect(readRule(text, 'overtime', m('nba', 'total'))).toMatchObject({ value: 'included' });
    expect(readRule(`${text} Fourth-quarter bets do not include overtime.`, 'overtime', m('nba', 'total', 'quarter:4'))).toMatchObject({ value: 'excluded' });
  });
  it('", and every market labelled as including overtime ..." is a statement of its own about markets not ours', () => {
    const text = 'All wagers exclude overtime, and every market labelled as including overtime also counts the shootout.';
    expect(readRule(text, 'overtime', m('nhl', 'moneyline'))).toMatchObject({ value: 'excluded', evidence: 'All wagers exclude overtime' });
  });
  it('"..., while half bets do" repeats the statement without its negation for its own subject', () => {
    const text = 'Quarter bets do not count overtime, while half bets do.';
    expect(readRule(text, 'overtime', m('nba', 'spread', 'half:2'))).toMatchObject({ value: 'included', evidence: 'while half bets do' });
    expect(readRule(text, 'overtime', m('nba', 'spread', 'quarter:4'))).toMatchObject({ value: 'excluded' });
  });
});

describe('safety classes of the eighth blind batch: no value read from silence (sentences written for these tests)', () => {
  it('a clause naming a market and no period does not decide overtime for a half of that market', () => {
    const text = 'Side bets: you take the points or lay them. Overtime is part of it. Half bets are also offered on sides.';
    expect(readRule(text, 'overtime', m('nfl', 'spread', 'half:2'))).toEqual({ value: 'unknown', why: 'silent' });
    expect(readRule(text, 'overtime', m('nfl', 'spread'))).toMatchObject({ value: 'included' });
    // A clause that names the half decides it.
    expect(readRule('Second-half totals include overtime.', 'overtime', m('nba', 'total', 'half:2'))).toMatchObject({ value: 'included' });
  });
  it('a market named before a dash labels the entry: a bare sentence after it speaks of that market only', () => {
    const text = 'Money line bets \u2013 the team ahead when play ends takes it. Extra periods are counted when the bet is settled. Goal totals \u2013 the full game must be played.';
    expect(readRule(text, 'overtime', m('nhl', 'moneyline'))).toMatchObject({ value: 'included' });
    expect(readRule(text, 'overtime', m('nhl', 'total'))).toEqual({ value: 'unknown', why: 'silent' });
  });
  it('a quantifier over a kind of market ("most NBA totals", "many player props") states no rule for each one', () => {
    expect(readRule('In practice many NBA totals are graded with overtime points added.', 'overtime', m('nba', 'total'))).toMatchObject({ value: 'unknown', why: 'hedged' });
    expect(readRule('Most player props count overtime stats.', 'overtime', m('nhl', 'player_prop'))).toMatchObject({ value: 'unknown', why: 'hedged' });
    expect(readRule('All NBA totals are graded with overtime points added.', 'overtime', m('nba', 'total'))).toMatchObject({ value: 'included' });
  });
  it('a statement about markets offered in play or in running says nothing of the markets placed before the game', () => {
    expect(readRule('Player points markets offered in-play: the player\'s statistics from overtime are counted.', 'overtime', m('nba', 'player_prop'))).toEqual({ value: 'unknown', why: 'silent' });
    expect(readRule('Totals traded in running are settled with overtime included.', 'overtime', m('nhl', 'total'))).toEqual({ value: 'unknown', why: 'silent' });
    expect(readRule('Player points markets: the player\'s statistics from overtime are counted.', 'overtime', m('nba', 'player_prop'))).toMatchObject({ value: 'included' });
  });
  it('"all bets" in the entry of a heading about a market outside the spec are that market\'s bets', () => {
    const text = 'Moneyline: every bet counts overtime and the shootout. Three-way lines: all bets are graded after regulation, so overtime is left out.';
    expect(readRule(text, 'overtime', m('nhl', 'moneyline'))).toMatchObject({ value: 'included' });
    expect(readRule(text, 'overtime', m('nhl', 'total'))).toEqual({ value: 'unknown', why: 'silent' });
    // Under a heading about one of our markets, or in a sentence of its own, "all bets" still reach every market.
    expect(readRule('Three-way lines are offered too. All bets are graded after regulation.', 'overtime', m('nhl', 'total'))).toMatchObject({ value: 'excluded' });
  });
  it('a quarter or period market "for that quarter only" leaves overtime out', () => {
    expect(readRule('Quarter totals and overtime specials are settled for that quarter only.', 'overtime', m('nfl', 'total', 'quarter:4'))).toMatchObject({ value: 'excluded' });
    expect(readRule('Quarter totals and overtime specials are settled for that quarter only.', 'overtime', m('nfl', 'total'))).toEqual({ value: 'unknown', why: 'silent' });
  });
  it('odds set to 1.00 return the stake: a refund', () => {
    expect(readRule('When a total lands on the number, the odds are set to 1.00.', 'push', m('nfl', 'total'))).toMatchObject({ value: 'void' });
    expect(readRule('A prop on a player who does not dress is settled at odds of 1.00.', 'non_participation', m('nhl', 'player_prop'))).toMatchObject({ value: 'void' });
  });
  it('"either side" and "both sides" of a bet are its selections, not side markets', () => {
    expect(readRule('What happens when a total lands on the number? Bets on either side are refunded.', 'push', m('nba', 'total'))).toMatchObject({ value: 'void' });
    expect(readRule('What if the total lands on the number? Both sides get their stake back.', 'push', m('nba', 'total'))).toMatchObject({ value: 'void' });
    expect(readRule('Sides are refunded when the margin lands on the number.', 'push', m('nba', 'total'))).toEqual({ value: 'unknown', why: 'silent' });
  });
  it('"overtimes" in the plural names overtime', () => {
    expect(readRule('Hockey: a winner must be determined; all overtimes count.', 'overtime', m('nhl', 'moneyline'))).toMatchObject({ value: 'included' });
  });
  it('a player short of the minimum play requirement has not taken part, and "whether More or Less was chosen" names no market', () => {
    expect(readRule('If a player does not meet the minimum play requirement, the pick is void.', 'non_participation', m('wnba', 'player_prop'))).toMatchObject({ value: 'void' });
    expect(readRule('Picks on a player who does not play are void, whether More or Less was chosen.', 'non_participation', m('nba', 'player_prop'))).toMatchObject({ value: 'void' });
  });
  it('"match bets" are bets on the whole match: their tie rule says nothing of a half', () => {
    const text = 'Match wagers are void if the game ends in a draw.';
    expect(readRule(text, 'tie', m('nfl', 'moneyline', 'half:1'))).toEqual({ value: 'unknown', why: 'silent' });
    expect(readRule(text, 'tie', m('nfl', 'moneyline'))).toMatchObject({ value: 'void' });
  });
  it('a heading naming one market product outside the spec ("Next goal market:") heads no market of ours', () => {
    const text = 'Next goal market: settled on the goal after the bet is struck, overtime goals included.';
    expect(readRule(text, 'overtime', m('nhl', 'moneyline'))).toEqual({ value: 'unknown', why: 'silent' });
    expect(readRule(text, 'overtime', m('nhl', 'total'))).toEqual({ value: 'unknown', why: 'silent' });
    // A heading naming a market of ours, or a kind of markets, still scopes its entry.
    expect(readRule('Money line market: settled on the final result, overtime goals included.', 'overtime', m('nhl', 'moneyline'))).toMatchObject({ value: 'included' });
    expect(readRule('Main market: settled on the final result, overtime goals included.', 'overtime', m('nhl', 'moneyline'))).toMatchObject({ value: 'included' });
  });
});

describe('corpus of real rules texts (evaluation part)', () => {
  it('meets the targets: right >= 95%, wrong <= 1%, silent reported known 0, verdicts >= 95%, no opposite rules equivalent', () => {
    const c = loadCorpus();
    expect(c.texts.size).toBeGreaterThanOrEqual(150);
    const r = evaluate(c, 'evaluation');
    expect(r.overall.stated).toBeGreaterThan(50);
    expect(r.overall.right / r.overall.stated).toBeGreaterThanOrEqual(0.95);
    expect(r.overall.wrong / r.overall.stated).toBeLessThanOrEqual(0.01);
    expect(r.overall.silentKnown).toBe(0);
    expect(r.verdicts.groups).toBeGreaterThan(30);
    expect(r.verdicts.right / r.verdicts.groups).toBeGreaterThanOrEqual(0.95);
    expect(r.verdicts.oppositeEquivalent).toBe(0);
  });
  it("keeps the blind batches' development rows (what tuning used, their former evaluation parts included) read: right >= 95%, none wrong, no silent text reported known but the listed ones", () => {
    const c = loadCorpus();
    // No silent row is reported known: a final-score sentence states nothing for a player prop (p470,
    // p536; measurements.md, round 7), so any is a regression.
    const allowed: Record<string, string[]> = {};
    for (const part of ['blind-development', 'blind-extra-development', 'blind-former-evaluation', 'blind2-former-evaluation', 'blind3-former-evaluation'] as const) {
      const r = evaluate(c, part);
      expect(r.overall.stated).toBeGreaterThan(25);
      expect(r.overall.right / r.overall.stated).toBeGreaterThanOrEqual(0.95);
      expect(r.overall.wrong).toBe(0);
      expect(r.misses.filter((x) => x.expected === 'unknown').map((x) => x.row)).toEqual(allowed[part] ?? []);
      expect(r.verdicts.oppositeEquivalent).toBe(0);
    }
    // Five parts, every row read for every rule: a hang guard, not a speed check (26-29 s alone on a
    // machine at load 22, 32.8 s beside the other rules tests there).
  }, 300_000);
  // Every blind batch since the fourth, development since it was measured once: no value read wrong,
  // no opposite rules read alike, and a floor at the figure tuning reached on it (measurements.md), so a
  // change that loses a right value there fails; the silent rows still read known are listed exactly,
  // so one more fails too. `stated`: a lower bound on the part's stated rows (the corpus is whole).
  const BLIND_GUARDS: Array<{ part: Part; batch: string; stated: number; right: number; silentKnown: string[]; wrongLeft?: string[] }> = [
    { part: 'blind4-former-evaluation', batch: 'fourth', stated: 100, right: BLIND4_RIGHT, silentKnown: BLIND4_SILENT_KNOWN },
    { part: 'blind5-former-evaluation', batch: 'fifth', stated: 100, right: BLIND5_RIGHT, silentKnown: BLIND5_SILENT_KNOWN },
    { part: 'blind6-former-evaluation', batch: 'sixth', stated: 100, right: BLIND6_RIGHT, silentKnown: BLIND6_SILENT_KNOWN },
    { part: 'blind7-former-evaluation', batch: 'seventh', stated: 90, right: BLIND7_RIGHT, silentKnown: BLIND7_SILENT_KNOWN },
    { part: 'blind8-former-evaluation', batch: 'eighth', stated: 50, right: BLIND8_RIGHT, silentKnown: BLIND8_SILENT_KNOWN },
    { part: 'blind9-former-evaluation', batch: 'ninth', stated: 60, right: BLIND9_RIGHT, silentKnown: BLIND9_SILENT_KNOWN },
    { part: 'blind10-former-evaluation', batch: 'tenth', stated: 80, right: BLIND10_RIGHT, silentKnown: BLIND10_SILENT_KNOWN },
    { part: 'blind11-former-evaluation', batch: 'eleventh', stated: 80, right: BLIND11_RIGHT, silentKnown: [] },
    { part: 'blind12-former-evaluation', batch: 'twelfth', stated: 100, right: BLIND12_RIGHT, silentKnown: [] },
    { part: 'blind13-former-evaluation', batch: 'thirteenth', stated: 80, right: BLIND13_RIGHT, silentKnown: BLIND13_SILENT_KNOWN },
    { part: 'blind14-former-evaluation', batch: 'fourteenth', stated: 90, right: BLIND14_RIGHT, silentKnown: [] },
    { part: 'blind15-former-evaluation', batch: 'fifteenth', stated: 90, right: BLIND15_RIGHT, silentKnown: BLIND15_SILENT_KNOWN },
    { part: 'blind16-former-evaluation', batch: 'sixteenth', stated: 80, right: BLIND16_RIGHT, silentKnown: [] },
    { part: 'blind17-former-evaluation', batch: 'seventeenth', stated: 100, right: BLIND17_RIGHT, silentKnown: BLIND17_SILENT_KNOWN },
    { part: 'blind18-former-evaluation', batch: 'eighteenth', stated: 90, right: BLIND18_RIGHT, silentKnown: BLIND18_SILENT_KNOWN },
    { part: 'blind19-former-evaluation', batch: 'nineteenth', stated: 90, right: BLIND19_RIGHT, silentKnown: [] },
    { part: 'blind20-former-evaluation', batch: 'twentieth', stated: 90, right: BLIND20_RIGHT, silentKnown: [] },
    { part: 'blind21-former-evaluation', batch: 'twenty-first', stated: 80, right: BLIND21_RIGHT, silentKnown: [] },
    { part: 'blind22-former-evaluation', batch: 'twenty-second', stated: 100, right: BLIND22_RIGHT, silentKnown: [] },
    { part: 'blind23-former-evaluation', batch: 'twenty-third', stated: 80, right: BLIND23_RIGHT, silentKnown: [] },
    { part: 'blind24-former-evaluation', batch: 'twenty-fourth', stated: 50, right: BLIND24_RIGHT, silentKnown: [] },
    { part: 'blind25-former-evaluation', batch: 'twenty-fifth', stated: 75, right: BLIND25_RIGHT, silentKnown: [] },
    { part: 'blind26-former-evaluation', batch: 'twenty-sixth', stated: 70, right: BLIND26_RIGHT, silentKnown: [] },
    { part: 'blind27-former-evaluation', batch: 'twenty-seventh', stated: 70, right: BLIND27_RIGHT, silentKnown: [] },
    { part: 'blind28-former-evaluation', batch: 'twenty-eighth', stated: 80, right: BLIND28_RIGHT, silentKnown: [] },
    { part: 'blind29-former-evaluation', batch: 'twenty-ninth', stated: 70, right: BLIND29_RIGHT, silentKnown: [] },
    { part: 'blind30-former-evaluation', batch: 'thirtieth', stated: 55, right: BLIND30_RIGHT, silentKnown: [] },
    { part: 'blind31-former-evaluation', batch: 'thirty-first', stated: 70, right: BLIND31_RIGHT, silentKnown: [] },
    { part: 'blind32-former-evaluation', batch: 'thirty-second', stated: 46, right: BLIND32_RIGHT, silentKnown: [] },
    { part: 'blind33-former-evaluation', batch: 'thirty-third', stated: 28, right: BLIND33_RIGHT, silentKnown: [] },
    { part: 'blind34-former-evaluation', batch: 'thirty-fourth', stated: 62, right: BLIND34_RIGHT, silentKnown: [] },
    { part: 'blind35-former-evaluation', batch: 'thirty-fifth', stated: 56, right: BLIND35_RIGHT, silentKnown: [] },
    { part: 'blind36-former-evaluation', batch: 'thirty-sixth', stated: 52, right: BLIND36_RIGHT, silentKnown: [] },
    { part: 'blind37-former-evaluation', batch: 'thirty-seventh', stated: 52, right: BLIND37_RIGHT, silentKnown: [] },
    { part: 'blind38-former-evaluation', batch: 'thirty-eighth', stated: 34, right: BLIND38_RIGHT, silentKnown: [] },
    { part: 'blind40-former-evaluation', batch: 'fortieth', stated: 32, right: BLIND40_RIGHT, silentKnown: [] },
    { part: 'blind39-former-evaluation', batch: 'thirty-ninth', stated: 16, right: BLIND39_RIGHT, silentKnown: [] },
    { part: 'blind41-former-evaluation', batch: 'forty-first', stated: 33, right: BLIND41_RIGHT, silentKnown: [], wrongLeft: BLIND41_WRONG_LEFT },
    { part: 'blind42-former-evaluation', batch: 'forty-second', stated: 39, right: BLIND42_RIGHT, silentKnown: BLIND42_SILENT_KNOWN },
    { part: 'blind43-former-evaluation', batch: 'forty-third', stated: 18, right: BLIND43_RIGHT, silentKnown: [] },
    { part: 'blind44-former-evaluation', batch: 'forty-fourth', stated: 29, right: BLIND44_RIGHT, silentKnown: BLIND44_SILENT_KNOWN },
    { part: 'blind45-former-evaluation', batch: 'forty-fifth', stated: 19, right: BLIND45_RIGHT, silentKnown: [] },
    { part: 'blind46-former-evaluation', batch: 'forty-sixth', stated: 14, right: BLIND46_RIGHT, silentKnown: [], wrongLeft: BLIND46_WRONG_LEFT },
  ];
  it.each(BLIND_GUARDS.map((g) => ({ wrongLeft: [] as string[], ...g })))(
    'keeps the $batch blind batch (development since it was measured once) free of wrong values (but on rows left wrong with their reason, $wrongLeft) and of opposite rules read alike, at least $right right, silent rows read known exactly $silentKnown',
    ({ part, stated, right, silentKnown, wrongLeft }) => {
      const r = evaluate(loadCorpus(), part);
      expect(r.overall.stated).toBeGreaterThan(stated);
      // A wrong value is allowed only on a row measurements.md names as left wrong (with its reason), each named here.
      expect(r.misses.filter((x) => x.expected !== 'unknown' && x.got !== 'unknown').map((x) => x.row)).toEqual(wrongLeft);
      expect(r.overall.wrong).toBe(wrongLeft.length);
      expect(r.verdicts.oppositeEquivalent).toBe(0);
      expect(r.overall.right).toBeGreaterThanOrEqual(right);
      expect(r.misses.filter((x) => x.expected === 'unknown').map((x) => x.row)).toEqual(silentKnown);
    },
    // A whole part read for every rule: on a shared, loaded machine this outlasts the default 5 s.
    30_000,
  );
});

/** Half A of the held-out probes (test/fixtures/rules/held-out-probes.json) as the round that tuned on
 * it left it: stated values read right, none wrong, no silent probe read known. Half B is measured by
 * bin/eval-rules-probes.ts and reported in measurements.md, not gated, so tuning stays blind to it. */
const PROBES_A_RIGHT = 26;

describe('held-out probes, the half tuning may look at', () => {
  it('reads half A without a wrong value or a silent probe read known, holding what tuning reached', () => {
    type Probe = { id: string; half: string; text: string; rule: Parameters<typeof readRule>[1]; league: MarketScope['league']; marketType: MarketScope['marketType']; segment: MarketScope['segment']; expected: string };
    const probes = (JSON.parse(readFileSync(new URL('../../test/fixtures/rules/held-out-probes.json', import.meta.url), 'utf8')) as { probes: Probe[] }).probes.filter((p) => p.half === 'A');
    const read = probes.map((p) => ({ p, got: readRule(p.text, p.rule, m(p.league, p.marketType, p.segment)).value }));
    const stated = read.filter((x) => x.p.expected !== 'unknown');
    expect(stated.length).toBeGreaterThan(20);
    expect(stated.filter((x) => x.got !== 'unknown' && x.got !== x.p.expected).map((x) => x.p.id)).toEqual([]);
    expect(read.filter((x) => x.p.expected === 'unknown' && x.got !== 'unknown').map((x) => x.p.id)).toEqual([]);
    expect(stated.filter((x) => x.got === x.p.expected).length).toBeGreaterThanOrEqual(PROBES_A_RIGHT);
  });
  // The second probe set (held-out-probes-stated.json: stated values the reader reported unknown), half
  // A as the round that tuned on it left it. s12, an esports page whose title did not reach the market
  // label after it, reads unknown since a short heading naming only a sport outside the spec opens a
  // section for none of our leagues (0f0a5a0, made for a fourteenth-batch text, not for the probe).
  it('reads half A of the probes on stated values without a wrong value, holding what tuning reached', () => {
    type Probe = { id: string; half: string; text: string; rule: Parameters<typeof readRule>[1]; league: MarketScope['league']; marketType: MarketScope['marketType']; segment: MarketScope['segment']; expected: string };
    const probes = (JSON.parse(readFileSync(new URL('../../test/fixtures/rules/held-out-probes-stated.json', import.meta.url), 'utf8')) as { probes: Probe[] }).probes.filter((p) => p.half === 'A');
    const read = probes.map((p) => ({ p, got: readRule(p.text, p.rule, m(p.league, p.marketType, p.segment)).value }));
    const stated = read.filter((x) => x.p.expected !== 'unknown');
    expect(stated.filter((x) => x.got !== 'unknown' && x.got !== x.p.expected).map((x) => x.p.id)).toEqual([]);
    expect(read.filter((x) => x.p.expected === 'unknown' && x.got !== 'unknown').map((x) => x.p.id)).toEqual([]);
    expect(stated.filter((x) => x.got === x.p.expected).length).toBeGreaterThanOrEqual(7);
  });
});

describe('safety classes of the ninth blind batch: no value read wrong or from silence (sentences written for these tests)', () => {
  it('a market on overtime alone ("only goals during overtime are considered") says nothing of the full game', () => {
    expect(readRule('Overtime goal special | Only goals during overtime are considered.', 'overtime', m('nhl', 'total'))).toEqual({ value: 'unknown', why: 'silent' });
    expect(readRule('Next scorer in OT: only points scored in overtime count.', 'overtime', m('nfl', 'total'))).toEqual({ value: 'unknown', why: 'silent' });
    expect(readRule('Totals: goals during overtime are considered.', 'overtime', m('nhl', 'total'))).toMatchObject({ value: 'included' });
  });
  it('markets marked as including overtime are those markets, not every market', () => {
    expect(readRule('If the game needs extra time, only bets marked "includes overtime" are graded once it ends.', 'overtime', m('nba', 'total'))).toEqual({ value: 'unknown', why: 'silent' });
    expect(readRule('If the game goes to overtime, all bets include overtime.', 'overtime', m('nba', 'total'))).toMatchObject({ value: 'included' });
  });
  it('"the two-way winner" names the money line', () => {
    const text = 'Goals total | the full game must be played. Winner with overtime? | The two-way winner: overtime and shootouts count.';
    expect(readRule(text, 'overtime', m('nhl', 'moneyline'))).toMatchObject({ value: 'included' });
    expect(readRule(text, 'overtime', m('nhl', 'total'))).toEqual({ value: 'unknown', why: 'silent' });
  });
  it('"no one wins or loses" denies the loss it names', () => {
    expect(readRule('On a push nobody wins or loses, so the bet just sits there.', 'push', m('nfl', 'spread'))).toEqual({ value: 'unknown', why: 'silent' });
    expect(readRule('When a bet pushes no one wins or loses.', 'push', m('nba', 'total'))).toEqual({ value: 'unknown', why: 'silent' });
    expect(readRule('A push loses.', 'push', m('nba', 'total'))).toMatchObject({ value: 'loses' });
  });
  it('a margin ("loses by 1 or 2") is the game\'s score, not how a push settles', () => {
    expect(readRule('Take the Bills -7: they win by 8 or more, the bet loses by 6 or fewer, and it pushes on 7.', 'push', m('nfl', 'spread'))).toEqual({ value: 'unknown', why: 'silent' });
    expect(readRule('A spread that pushes loses.', 'push', m('nfl', 'spread'))).toMatchObject({ value: 'loses' });
  });
  it('a definition of regular time states no rule for any market', () => {
    const text = 'Terms used. Regulation time: the length of a game set by its league; it leaves out overtime and shootouts.';
    expect(readRule('Terms used. Regular time: the length of a game set by its league; it excludes overtime and shootouts.', 'overtime', m('nhl', 'moneyline'))).toEqual({ value: 'unknown', why: 'silent' });
    expect(readRule(text.replace('leaves out', 'excludes'), 'overtime', m('nba', 'moneyline'))).toEqual({ value: 'unknown', why: 'silent' });
    expect(readRule('Regular time: all bets are settled on it; overtime is excluded.', 'overtime', m('nhl', 'moneyline'))).toMatchObject({ value: 'excluded' });
  });
  it('a cancelled event named among the cases of a player not taking part is no value', () => {
    expect(readRule('If a picked player takes no part - injured, benched, or the game cancelled - the pick is handled as a non-participant.', 'non_participation', m('nba', 'player_prop'))).toEqual({ value: 'unknown', why: 'silent' });
    expect(readRule('If a picked player does not play, the pick is cancelled.', 'non_participation', m('nba', 'player_prop'))).toMatchObject({ value: 'void' });
  });
  it('a title that excepts the sport\'s league of ours makes the text about other leagues', () => {
    const text = 'Basketball (except NBA, WNBA and NCAA). 1. Every bet is settled on regular time; overtime is not included. 2. Totals: a total that lands on the line is a push, stakes returned.';
    expect(readRule(text, 'overtime', m('nba', 'moneyline'))).toEqual({ value: 'unknown', why: 'silent' });
    expect(readRule(text, 'push', m('wnba', 'total'))).toEqual({ value: 'unknown', why: 'silent' });
    expect(readRule(text.replace(' (except NBA, WNBA and NCAA)', ''), 'overtime', m('nba', 'moneyline'))).toMatchObject({ value: 'excluded' });
  });
  it('"does not play a snap" is football wording: it states no rule for a basketball or hockey prop', () => {
    const text = 'Player props are void only when the player does not play a snap in the game.';
    expect(readRule(text, 'non_participation', m('nba', 'player_prop'))).toEqual({ value: 'unknown', why: 'silent' });
    expect(readRule(text, 'non_participation', m('nfl', 'player_prop'))).toMatchObject({ value: 'void' });
  });
  it('a page that covers another sport only states no rule for our markets', () => {
    const text = 'Cricket rules. A tied match pays half the stake at full odds. This page covers cricket only; NFL bets follow the football rules.';
    expect(readRule(text, 'tie', m('nfl', 'moneyline'))).toEqual({ value: 'unknown', why: 'silent' });
    // A page covering a kind of line of ours still speaks of our markets.
    expect(readRule('Regulation lines. Overtime is ignored. This page covers the regulation lines only.', 'overtime', m('nfl', 'moneyline'))).toMatchObject({ value: 'excluded' });
  });
});

describe('safety classes of the tenth blind batch: no value read wrong or from silence (sentences written for these tests)', () => {
  it('a fantasy contest called off for its slate is no cancelled game', () => {
    expect(readRule('If postponements leave a single game on the slate, the contest is called off and entries are refunded.', 'cancellation', m('nba', 'player_prop'))).toEqual({ value: 'unknown', why: 'silent' });
    expect(readRule('If the game is cancelled, player props are refunded.', 'cancellation', m('nba', 'player_prop'))).toMatchObject({ value: 'void' });
  });
  it('a dead heat among several winners of one market is no tied game', () => {
    expect(readRule('The dead heat rule: if a market has two or more winners, the odds are divided by the number of winners and each bet is settled that way, with the stake returned.', 'tie', m('nfl', 'moneyline'))).toEqual({ value: 'unknown', why: 'silent' });
    expect(readRule('Where no tie price is offered, a tied game is a dead heat and the stake is returned.', 'tie', m('nfl', 'moneyline'))).toMatchObject({ value: 'void' });
  });
  it('a "Winner (incl. overtime)" label names the money line, not the total beside it', () => {
    const text = 'Hockey markets. Winner (incl. overtime and shootout): pick the side that wins. Total: goals by both teams against the line.';
    expect(readRule(text, 'overtime', m('nhl', 'total'))).toEqual({ value: 'unknown', why: 'silent' });
    expect(readRule(text, 'overtime', m('nhl', 'moneyline'))).toMatchObject({ value: 'included' });
    // A competitor's total is a team total.
    expect(readRule('Competitor 2 total (incl. extra innings): runs by the away team.', 'overtime', m('mlb', 'team_total'))).toMatchObject({ value: 'included' });
  });
  it('a draw-no-bet item and a rest-of-the-match market speak of their own markets', () => {
    const text = 'Hockey rules. (4) Draw no bet: the winner of the match, the draw ignored; a) a level match is void; b) goals in overtime are not included. (5) Who wins the rest of the game: from a given minute; overtime is not counted.';
    expect(readRule(text, 'overtime', m('nhl', 'total'))).toEqual({ value: 'unknown', why: 'silent' });
    expect(readRule(text, 'overtime', m('nhl', 'moneyline'))).toMatchObject({ value: 'excluded' });
  });
  it('"these bets" with no market named before them state nothing for our markets', () => {
    expect(readRule('Hockey rules. In these bets overtime is not included.', 'overtime', m('nhl', 'total'))).toEqual({ value: 'unknown', why: 'silent' });
    expect(readRule('Hockey rules. In all bets overtime is not included.', 'overtime', m('nhl', 'total'))).toMatchObject({ value: 'excluded' });
  });
});

describe('stated values the tenth blind batch reported unknown: the kinds and clause structures behind them (sentences written for these tests)', () => {
  it('"this also applies to X" adds X to the statement before it and does not narrow it to X', () => {
    const text = 'Extra time: unless stated otherwise, wagers are graded on the result with overtime included. This also applies to second-half wagers.';
    expect(readRule(text, 'overtime', m('nba', 'total'))).toMatchObject({ value: 'included' });
    expect(readRule(text, 'overtime', m('nba', 'spread', 'half:2'))).toMatchObject({ value: 'included' });
    // "This applies only to X" still narrows it.
    expect(readRule('Wagers are graded on the result with overtime included. This applies only to second-half wagers.', 'overtime', m('nba', 'total'))).toEqual({ value: 'unknown', why: 'silent' });
  });
  it('a clause naming "that match" after a semicolon speaks of the case the clause before named', () => {
    expect(readRule('Settled markets stand if a game is called off or cancelled; all other bets on that game are void.', 'cancellation', m('nba', 'player_prop'))).toMatchObject({ value: 'void' });
    expect(readRule('Decided bets stand when an event is cancelled; every other wager on that event is refunded.', 'cancellation', m('nfl', 'moneyline'))).toMatchObject({ value: 'void' });
    // Without a case before it, "that game" carries nothing.
    expect(readRule('Settled markets stand; all other bets on that game are void.', 'cancellation', m('nba', 'player_prop'))).toEqual({ value: 'unknown', why: 'silent' });
  });
  it('"goals by one team" in a list of markets names the team total', () => {
    const text = 'Every hockey bet (the money line, total goals, goals by one team) is settled on the three regulation periods.';
    expect(readRule(text, 'overtime', m('nhl', 'team_total'))).toMatchObject({ value: 'excluded' });
    expect(readRule('Points by one team include overtime.', 'overtime', m('nba', 'team_total'))).toMatchObject({ value: 'included' });
    expect(readRule('Points by one team include overtime.', 'overtime', m('nba', 'total'))).toEqual({ value: 'unknown', why: 'silent' });
  });
  it('an example after a comma ("..., e.g. bets on the second half") names a case, not the scope', () => {
    expect(readRule('Wagers are graded on the result with overtime included, e.g. second-half wagers.', 'overtime', m('nba', 'moneyline'))).toMatchObject({ value: 'included' });
    expect(readRule('Wagers are graded on the result with overtime included, for example second-half wagers, unless the market says otherwise.', 'overtime', m('nfl', 'total'))).toMatchObject({ value: 'included' });
    // "such as" after a comma still names the markets the statement is about.
    expect(readRule('Some markets, such as second-half wagers, include overtime.', 'overtime', m('nba', 'moneyline'))).toEqual({ value: 'unknown', why: 'silent' });
  });
});

describe('stated values the reader reported unknown: the kinds behind them (sentences written for these tests)', () => {
  it('a line-adjusted tie ("tied once the spread is applied", "a total bet ends level") is a push', () => {
    expect(readRule('On spread bets, a game that finishes level once the points are applied returns every stake.', 'push', m('nfl', 'spread'))).toMatchObject({ value: 'void' });
    expect(readRule('Point spreads: if the result is tied after the handicap is applied, the bet is void.', 'push', m('nba', 'spread'))).toMatchObject({ value: 'void' });
    expect(readRule('If a money line, spread or total bet ends in a tie, those bets are refunded.', 'push', m('nhl', 'total'))).toMatchObject({ value: 'void' });
    expect(readRule('If a total bet ends level, it is graded as a loss.', 'push', m('nba', 'total'))).toMatchObject({ value: 'loses' });
    // A tied game with no line applied is no push.
    expect(readRule('If the game is tied after regulation, money line bets are void.', 'push', m('nfl', 'spread'))).toEqual({ value: 'unknown', why: 'silent' });
  });
  it('a player who does not play is taken out "as if never in the entry", or bets are "valid provided" he takes part: void', () => {
    expect(readRule('Players who do not take the field are dropped, and the entry is settled as though they had never been picked.', 'non_participation', m('nfl', 'player_prop'))).toMatchObject({ value: 'void' });
    expect(readRule('Player over/under bets are valid provided the named player takes part in the game.', 'non_participation', m('nba', 'player_prop'))).toMatchObject({ value: 'void' });
    expect(readRule('Bets are valid provided the game is completed.', 'non_participation', m('nba', 'player_prop'))).toEqual({ value: 'unknown', why: 'silent' });
    // "Player over/under" is a player's line, not the game total.
    expect(readRule('Player over/under bets include overtime.', 'overtime', m('nba', 'total'))).toEqual({ value: 'unknown', why: 'silent' });
  });
  it('a DNP pick that moves the entry down a level is a voided pick; "one or more picks" is a count, not the More side', () => {
    expect(readRule('When one or more of your players is ruled DNP, the entry reverts down one level.', 'non_participation', m('nba', 'player_prop'))).toMatchObject({ value: 'void' });
    expect(readRule('If one or more picks ends a push, your entry is downgraded to the picks that remain.', 'push', m('nba', 'player_prop'))).toMatchObject({ value: 'void' });
    expect(readRule('If one or more picks in an entry do not play, the entry moves down a tier.', 'non_participation', m('wnba', 'player_prop'))).toMatchObject({ value: 'void' });
  });
  it('a game not played "treated as a non-runner" is void', () => {
    expect(readRule('A game that is not played is treated as a non-runner for settlement.', 'cancellation', m('nba', 'player_prop'))).toMatchObject({ value: 'void' });
    expect(readRule('If the event does not take place, bets on it are treated as void.', 'cancellation', m('nfl', 'moneyline'))).toMatchObject({ value: 'void' });
    // A postponement alone names no cancellation.
    expect(readRule('A postponed match is treated as a non-runner unless it is played within 48 hours.', 'cancellation', m('nba', 'moneyline'))).toEqual({ value: 'unknown', why: 'silent' });
  });
  it('an outcome that "does not determine a winner" is a tie', () => {
    expect(readRule('If the result does not determine a winner, the market is cancelled and stakes are refunded.', 'tie', m('nfl', 'moneyline'))).toMatchObject({ value: 'void' });
    expect(readRule('Should the game end without a winner, both sides lose.', 'tie', m('nfl', 'moneyline'))).toMatchObject({ value: 'loses' });
  });
  it('"players who did not start" is the plural of a player who does not start', () => {
    expect(readRule('Props for players who did not start the game are voided.', 'non_participation', m('nba', 'player_prop'))).toMatchObject({ value: 'void' });
    expect(readRule('Players that do not start are graded as a loss.', 'non_participation', m('nhl', 'player_prop'))).toMatchObject({ value: 'loses' });
  });
  it('a tennis rule ("the first set") states nothing for our leagues', () => {
    expect(readRule('Tennis: a match cancelled before a ball is struck is void.', 'cancellation', m('nba', 'moneyline'))).toEqual({ value: 'unknown', why: 'silent' });
    expect(readRule('If a match is called off before the first set, all markets settle at the last fair price.', 'cancellation', m('nhl', 'moneyline'))).toEqual({ value: 'unknown', why: 'silent' });
    expect(readRule('If a match is called off, all markets settle at the last fair price.', 'cancellation', m('nhl', 'moneyline'))).toMatchObject({ value: 'fair_price' });
  });
});

describe('safety on the eleventh blind batch: announced exceptions, shares of a stake, denied sides', () => {
  it('an exception announced at a clause\'s end ("with one exception:") is read as the exception to the statement before it', () => {
    const text = 'Basketball: every bet type is settled on a score that takes in any overtime played, with one exception: for the more than / less than lines only the four quarters count.';
    expect(readRule(text, 'overtime', m('nba', 'total'))).toMatchObject({ value: 'excluded' });
    expect(readRule(text, 'overtime', m('nba', 'moneyline'))).toMatchObject({ value: 'included' });
  });
  it('"with or without overtime" says the value holds either way, not that overtime is left out', () => {
    expect(readRule('A winner pick on a game that finishes level loses, with or without overtime.', 'overtime', m('nfl', 'moneyline'))).toEqual({ value: 'unknown', why: 'silent' });
  });
  it('half of the stake winning and the other half lost is a dead heat\'s half payout, and that "half" names no period', () => {
    expect(readRule('When a two-way money line ends in a draw, half the bet wins at the price and half loses.', 'tie', m('nfl', 'moneyline'))).toMatchObject({ value: 'half_payout' });
    expect(readRule('A drawn game splits the ticket: half of your stake is paid at the odds and the other half is lost.', 'tie', m('nfl', 'moneyline'))).toMatchObject({ value: 'half_payout' });
    // The rest of a split stake, or a worked example's lost share, is no loss of the whole bet.
    expect(readRule('With three teams tied, a third of the stake is settled as a winner and the rest as a loser.', 'tie', m('nfl', 'moneyline'))).toEqual({ value: 'unknown', why: 'silent' });
    expect(readRule('Tied after four quarters: $40 wins at the odds and $40 is lost.', 'tie', m('nfl', 'moneyline'))).toEqual({ value: 'unknown', why: 'silent' });
    // A period named as a period still is one ("half bets" are bets on a half).
    expect(readRule('Half bets on a tied half lose.', 'tie', m('nfl', 'moneyline'))).toEqual({ value: 'unknown', why: 'silent' });
    expect(readRule('First half bets on a tied first half lose.', 'tie', m('nfl', 'moneyline'))).toEqual({ value: 'unknown', why: 'silent' });
  });
  it('"neither side won or lost" denies both outcomes of a tie', () => {
    expect(readRule('The score was tied at the final whistle, so neither side won or lost.', 'tie', m('nfl', 'moneyline'))).toEqual({ value: 'unknown', why: 'silent' });
  });
  it('a contest push that "counts as a miss" is not a refund', () => {
    expect(readRule('A pick landing exactly on the contest spread is a push: it counts as a miss.', 'push', m('nfl', 'spread'))).toMatchObject({ value: 'unknown', why: 'contradiction' });
  });
  it('"the result of the match" is the game\'s result: it says nothing of a player prop', () => {
    const text = 'Basketball: the result of the game includes overtime unless the market says otherwise.';
    expect(readRule(text, 'overtime', m('nba', 'player_prop'))).toEqual({ value: 'unknown', why: 'silent' });
    expect(readRule(text, 'overtime', m('nba', 'moneyline'))).toMatchObject({ value: 'included' });
  });
});

describe('stated values of the eleventh blind batch read through the lexicon (sentences written for these tests)', () => {
  it('"the Tie selection wins and both teams lose" makes the tie its own outcome, not a loss', () => {
    expect(readRule('If the game is level after five innings, the Draw selection wins and both teams lose.', 'tie', m('mlb', 'moneyline', 'half:1'))).toMatchObject({ value: 'separate_outcome' });
  });
  it('a tied game that "scores no point" for any pick is a lost pick', () => {
    expect(readRule('Any game that ends tied earns no points for anyone who picked it.', 'tie', m('nfl', 'moneyline'))).toMatchObject({ value: 'loses' });
  });
  it('a player who "must be in the starting line-up" names the case of one who does not play', () => {
    expect(readRule('Pitcher props: the pitcher must be in the starting line-up, otherwise the bet is void.', 'non_participation', m('mlb', 'player_prop'))).toMatchObject({ value: 'void' });
  });
  it('a handicap that leaves "the adjusted result a draw" is a push', () => {
    expect(readRule('Whenever the adjusted score is level, the bettor gets the stake back.', 'push', m('nba', 'spread'))).toMatchObject({ value: 'void' });
    expect(readRule('A draw after the handicap means every stake is returned.', 'push', m('nhl', 'spread'))).toMatchObject({ value: 'void' });
  });
});

describe('clause structures (sentences written for these tests)', () => {
  it('an exception set off by commas between a subject and its verb leaves the predicate to the subject', () => {
    const text = 'All wagers, except 4th-quarter lines, are settled on regulation time only.';
    expect(readRule(text, 'overtime', m('nba', 'total'))).toMatchObject({ value: 'excluded' });
    expect(readRule(text, 'overtime', m('nba', 'spread'))).toMatchObject({ value: 'excluded' });
    // The excepted markets do not take the statement.
    expect(readRule(text, 'overtime', m('nba', 'total', 'quarter:4'))).not.toMatchObject({ value: 'excluded' });
  });
  it('the items of an inset exception share its last noun ("period, overtime and shootout markets")', () => {
    const text = 'Each market, except period, overtime and shootout markets, is settled on the result after regulation.';
    expect(readRule(text, 'overtime', m('nhl', 'moneyline'))).toMatchObject({ value: 'excluded' });
    expect(readRule(text, 'overtime', m('nba', 'total', 'half:2'))).not.toMatchObject({ value: 'excluded' });
  });
  it('"the same applies" takes the value of the statement before it, for the markets its sentence names', () => {
    expect(readRule('Spreads: a game landing exactly on the number is refunded. Totals: the same applies.', 'push', m('nba', 'total'))).toMatchObject({ value: 'void' });
    expect(readRule('Moneyline bets include overtime; the same goes for team totals.', 'overtime', m('nba', 'team_total'))).toMatchObject({ value: 'included' });
    expect(readRule('Puck line - overtime periods count in the final score. Money line - the team has to win the game; the same overtime treatment applies.', 'overtime', m('nhl', 'moneyline'))).toMatchObject({ value: 'included' });
    // A reference that names no market of its own keeps the markets of the statement it repeats.
    expect(readRule('Moneyline bets include overtime. The same applies.', 'overtime', m('nba', 'total'))).toEqual({ value: 'unknown', why: 'silent' });
    // Statements before it that disagree give it no value.
    expect(readRule('Moneyline bets include overtime, quarter bets exclude it. The same applies to team totals.', 'overtime', m('nba', 'team_total'))).toEqual({ value: 'unknown', why: 'silent' });
  });
  it('a list item naming a market of ours "and" a market outside the spec holds the market of ours', () => {
    const text = 'Lines that include overtime: full-game spread and alternate spreads, second-half totals.';
    expect(readRule(text, 'overtime', m('nba', 'spread'))).toMatchObject({ value: 'included' });
    // A condition after the second market qualifies both: in-play lines are outside the spec.
    const inPlay = 'Markets that include overtime: moneylines and totals offered in play, team totals.';
    expect(readRule(inPlay, 'overtime', m('nba', 'moneyline'))).toEqual({ value: 'unknown', why: 'silent' });
    expect(readRule(inPlay, 'overtime', m('nba', 'team_total'))).toMatchObject({ value: 'included' });
    // An item that goes on past the second market is a statement, not a market named with another.
    expect(readRule('Totals include overtime. The 1X2, Total Goals Range and Double Chance markets do not include overtime.', 'overtime', m('nhl', 'total'))).toMatchObject({ value: 'included' });
  });
  it('an example set off by a dash and closed by "for example" is no scope of the statement before it', () => {
    const text = 'Unless stated otherwise, bets are settled on the final result including overtime – second-half spreads, for example.';
    expect(readRule(text, 'overtime', m('nba', 'total'))).toMatchObject({ value: 'included' });
    expect(readRule(text, 'overtime', m('wnba', 'team_total'))).toMatchObject({ value: 'included' });
  });
  it('"game and second-half wagers" names the full game and the second half (the period shares the noun)', () => {
    const text = 'Game and second-half bets on sides and totals include overtime.';
    expect(readRule(text, 'overtime', m('nba', 'spread'))).toMatchObject({ value: 'included' });
    expect(readRule(text, 'overtime', m('nba', 'total', 'half:2'))).toMatchObject({ value: 'included' });
    expect(readRule(text, 'overtime', m('nba', 'total', 'half:1'))).toEqual({ value: 'unknown', why: 'silent' });
  });
});

describe('safety on the twelfth blind batch (sentences written for these tests)', () => {
  it('a heading naming markets by what overtime does to them lists those markets after its colon', () => {
    const text = 'All wagers are graded on the result after overtime unless otherwise stated. Wagers that exclude overtime: 4th quarter lines, 1st half lines.';
    expect(readRule(text, 'overtime', m('nfl', 'total', 'quarter:4'))).toMatchObject({ value: 'excluded' });
    expect(readRule(text, 'overtime', m('nfl', 'spread', 'half:1'))).toMatchObject({ value: 'excluded' });
    expect(readRule(text, 'overtime', m('nfl', 'spread'))).toMatchObject({ value: 'included' });
    expect(readRule('Lines which do not include overtime: 1st half lines.', 'overtime', m('nba', 'total', 'half:1'))).toMatchObject({ value: 'excluded' });
    // A heading that says more than the class keeps its reach outside the spec.
    expect(readRule('Live wagers that exclude overtime: 4th quarter lines.', 'overtime', m('nfl', 'total', 'quarter:4'))).toEqual({ value: 'unknown', why: 'silent' });
  });
  it('reported speech in a news story is a party\'s claim, not the venue\'s rule', () => {
    expect(readRule('The operator said the wager lost because overtime is not counted in its puck line market.', 'overtime', m('nhl', 'spread'))).toMatchObject({ value: 'unknown' });
    expect(readRule('The bettor argued that overtime counts toward every total.', 'overtime', m('nhl', 'total'))).toMatchObject({ value: 'unknown' });
    // A rule stated as the venue's own still reads.
    expect(readRule('Totals include overtime. The sportsbook director said nothing else.', 'overtime', m('nhl', 'total'))).toMatchObject({ value: 'included' });
  });
  it('"counts as a tie" classifies a game; it does not say that overtime counts', () => {
    expect(readRule('When overtime ends scoreless and a shootout follows, the game counts as a draw in the standings.', 'overtime', m('nhl', 'moneyline'))).toEqual({ value: 'unknown', why: 'silent' });
    expect(readRule('A game still level after overtime is counted as a tie.', 'overtime', m('nhl', 'moneyline'))).toEqual({ value: 'unknown', why: 'silent' });
    // "Overtime counts" still reads as overtime counted.
    expect(readRule('Overtime counts for moneyline bets.', 'overtime', m('nhl', 'moneyline'))).toMatchObject({ value: 'included' });
  });
  it('"match results" names the game\'s result, which says nothing for a player prop (it settles on a statistic)', () => {
    const text = 'Basketball: match results include overtime, except bets on a quarter.';
    expect(readRule(text, 'overtime', m('nba', 'player_prop'))).toEqual({ value: 'unknown', why: 'silent' });
    expect(readRule(text, 'overtime', m('nba', 'total'))).toMatchObject({ value: 'included' });
    expect(readRule('Game results are final after overtime.', 'overtime', m('wnba', 'player_prop'))).toEqual({ value: 'unknown', why: 'silent' });
  });
  it('a league opening the entry of a heading about a market outside the spec is that market\'s section', () => {
    const text = 'On three-way lines the tie rules differ by sport: Hockey - a game still level after overtime is graded a tie, so overtime counts.';
    expect(readRule(text, 'overtime', m('nhl', 'moneyline'))).toEqual({ value: 'unknown', why: 'silent' });
    // Under a heading about markets of ours the league entry still reads.
    expect(readRule('Game lines by sport: Hockey - overtime counts.', 'overtime', m('nhl', 'moneyline'))).toMatchObject({ value: 'included' });
  });
  it('"to qualify" names a market outside the spec, as "to advance" does', () => {
    expect(readRule("Cup ties have special bets such as 'to qualify', which counts regulation, overtime and the shootout.", 'overtime', m('nhl', 'moneyline'))).toEqual({ value: 'unknown', why: 'silent' });
    expect(readRule('The moneyline includes overtime; the to qualify market includes the shootout as well.', 'overtime', m('nhl', 'moneyline'))).toMatchObject({ value: 'included' });
  });
});

describe('safety on the thirteenth blind batch (sentences written for these tests)', () => {
  it('"for a bet to count" says when a bet stands, not that overtime counts; "must match the result at the end of regular time" is regulation', () => {
    const text = 'For a wager to count, your pick must match the result at the end of regulation: a pick that only comes true in the extra period is not a winner.';
    expect(readRule(text, 'overtime', m('nhl', 'moneyline'))).toMatchObject({ value: 'excluded' });
    expect(readRule('For your bet to count, the pick has to come true in the extra period or before.', 'overtime', m('nhl', 'moneyline'))).toEqual({ value: 'unknown', why: 'silent' });
    // "Overtime counts" still reads as overtime counted.
    expect(readRule('Overtime goals count for the moneyline.', 'overtime', m('nhl', 'moneyline'))).toMatchObject({ value: 'included' });
  });
  it('"every bet either wins or loses" says a line cannot push, not that a push loses', () => {
    expect(readRule('On a half-point spread the margin can never land exactly on the line, so every wager either wins or loses.', 'push', m('nfl', 'spread'))).toEqual({ value: 'unknown', why: 'silent' });
    expect(readRule('With half lines there is no push: bets win or lose.', 'push', m('nba', 'total'))).toEqual({ value: 'unknown', why: 'silent' });
    // A push that loses still reads.
    expect(readRule('If the margin lands exactly on the spread, the bet loses.', 'push', m('nfl', 'spread'))).toMatchObject({ value: 'loses' });
  });
  it('a value said for the case of extra innings being needed holds over the nine-inning basis before it in the sentence', () => {
    const text = 'Run lines are graded on the official result after 9 innings; if extra innings are needed, wagers are settled on the final official score.';
    expect(readRule(text, 'overtime', m('mlb', 'spread'))).toMatchObject({ value: 'included' });
    expect(readRule('If additional innings are needed to decide the game, totals are resolved on the final score.', 'overtime', m('mlb', 'total'))).toMatchObject({ value: 'included' });
    // A basis with no case after it is still regulation; a case said in another sentence still contradicts it.
    expect(readRule('Run lines are graded on the official result after 9 innings.', 'overtime', m('mlb', 'spread'))).toMatchObject({ value: 'excluded' });
    expect(readRule('Run lines are graded on the official result after 9 innings. If extra innings are needed, run line wagers are settled on the final official score.', 'overtime', m('mlb', 'spread'))).toMatchObject({ value: 'unknown', why: 'contradiction' });
  });
});

describe('stated values of the thirteenth blind batch read unknown: the kinds behind them (sentences written for these tests)', () => {
  it('"only the scores of the third and fourth quarters decide" the second half leaves overtime out', () => {
    expect(readRule('On second-half bets only the points of the 3rd and 4th quarters decide who covered.', 'overtime', m('nba', 'spread', 'half:2'))).toMatchObject({ value: 'excluded' });
    expect(readRule('For the second half only the scores of the third and fourth quarters count.', 'overtime', m('nfl', 'total', 'half:2'))).toMatchObject({ value: 'excluded' });
    // With overtime added to the two quarters, the period includes it.
    expect(readRule('Second-half bets count only the third and fourth quarters plus any overtime.', 'overtime', m('nfl', 'total', 'half:2'))).not.toMatchObject({ value: 'excluded' });
  });
  it('push: "equal a whole-number line"; "the favourite wins by exactly the handicap" names a margin, not one side; "the margin of victory is greater than the number" is a spread\'s win condition', () => {
    expect(readRule('Quarter totals: where the quarter points equal a whole-number line, stakes are returned.', 'push', m('nba', 'total', 'quarter:4'))).toMatchObject({ value: 'void' });
    expect(readRule('If the favourite wins by exactly the spread, the wager is a push and stakes are returned.', 'push', m('nfl', 'spread'))).toMatchObject({ value: 'void' });
    expect(readRule('Should the underdog lose by exactly the handicap, the bet is refunded.', 'push', m('nba', 'spread'))).toMatchObject({ value: 'void' });
    expect(readRule("Resolves Yes only if the Chiefs' margin of victory is greater than the number; a win by exactly 7 resolves No.", 'push', m('nfl', 'spread'))).toMatchObject({ value: 'loses' });
    // A clause about one side's bet still settles nothing for the market.
    expect(readRule('If you bet the favourite and the line lands exactly, you lose.', 'push', m('nfl', 'spread'))).toEqual({ value: 'unknown', why: 'silent' });
  });
  it('"settled at odds 1.00" returns the stake, as "odds of 1.00" does', () => {
    expect(readRule('If the player does not appear in the game, wagers on him are graded at odds 1.00.', 'non_participation', m('nfl', 'player_prop'))).toMatchObject({ value: 'void' });
    expect(readRule('If the adjusted score lands exactly on the spread, bets are settled at odds 1.0.', 'push', m('nba', 'spread'))).toMatchObject({ value: 'void' });
  });
  it('a sentence that is only a sport\'s name ("Ice hockey.") heads the sentences after it, as "Ice hockey:" does', () => {
    const text = 'Ice hockey. Match result: goals in overtime or the shootout are not included. Basketball. Match result: the final result, overtimes included.';
    expect(readRule(text, 'overtime', m('nhl', 'moneyline'))).toMatchObject({ value: 'excluded' });
    expect(readRule(text, 'overtime', m('nba', 'moneyline'))).toMatchObject({ value: 'included' });
  });
  it('a game interrupted and not resumed within a window, or whose result cannot be determined within one, is a game not completed (cancellation)', () => {
    expect(readRule('If a game is halted and not resumed within 24 hours, player bets are void.', 'cancellation', m('nba', 'player_prop'))).toMatchObject({ value: 'void' });
    expect(readRule('Where the official result of a game already under way cannot be determined within 48 hours, all player wagers are refunded.', 'cancellation', m('nhl', 'player_prop'))).toMatchObject({ value: 'void' });
    // A postponement window alone still names no cancellation.
    expect(readRule('If a game is postponed and not played within 24 hours, player bets are void.', 'cancellation', m('nba', 'player_prop'))).toEqual({ value: 'unknown', why: 'silent' });
  });
});

describe('stated values of the twelfth blind batch read unknown: the kinds behind them (sentences written for these tests)', () => {
  it('"games that tie once the spread is taken into account" is a push, the verb as the adjective', () => {
    expect(readRule('Sides that tie once the point spread is taken into account are no action.', 'push', m('nfl', 'spread'))).toMatchObject({ value: 'void' });
    expect(readRule('Bets that tie once the handicap is taken into account are refunded.', 'push', m('nba', 'spread'))).toMatchObject({ value: 'void' });
  });
  it('a lead-in ending "the push rule applies:" is a statement, not a phrase cut off before its list', () => {
    const text = 'When a spread or total lands exactly on the posted line, the push rule applies: single stakes are returned and the leg is removed from parlays.';
    expect(readRule(text, 'push', m('nfl', 'spread'))).toMatchObject({ value: 'void' });
    expect(readRule(text, 'push', m('nba', 'total'))).toMatchObject({ value: 'void' });
    // A lead-in cut off before its list still states nothing of its own.
    expect(readRule('Overtime does not count for: 1st half lines.', 'overtime', m('nba', 'spread'))).toEqual({ value: 'unknown', why: 'silent' });
  });
  it('"the margin of victory equals the spread" is a push case, not the margin-of-victory market', () => {
    expect(readRule('Where the margin of victory equals the spread, the game is a tie: its odds are set to 1.00.', 'push', m('nfl', 'spread'))).toMatchObject({ value: 'void' });
    // The margin-of-victory market itself stays outside the spec.
    expect(readRule('Margin of victory bets that land exactly on a band edge are refunded.', 'push', m('nfl', 'spread'))).toEqual({ value: 'unknown', why: 'silent' });
  });
  it('"odds are set at 1.00" is the stake back, as "set to 1.00" is', () => {
    expect(readRule('When the final combined score equals the total, the pick is a tie: its odds are set at 1.00.', 'push', m('nhl', 'total'))).toMatchObject({ value: 'void' });
  });
});

describe('stated values read unknown across the development parts: the kinds behind them (sentences written for these tests)', () => {
  it('"extra play" names overtime, as "extended play" does', () => {
    expect(readRule('The result of each listed game includes any extra play.', 'overtime', m('nfl', 'spread'))).toMatchObject({ value: 'included' });
    expect(readRule('A total is the combined score of both sides including extra play.', 'overtime', m('mlb', 'total'))).toMatchObject({ value: 'included' });
    expect(readRule('Final results for basketball include all extra play.', 'overtime', m('nba', 'total'))).toMatchObject({ value: 'included' });
    expect(readRule('Results are taken at the end of regulation and do not include extra play.', 'overtime', m('nhl', 'total'))).toMatchObject({ value: 'excluded' });
    // The shootout said not to be extra play states no value of its own.
    const total = 'A total is the combined score of both sides including extra play, except that in hockey the shootout is not extra play.';
    expect(readRule(total, 'overtime', m('nhl', 'total'))).toMatchObject({ value: 'included' });
  });
  it('"..., except that for hockey the shootout adds no goal" excepts the shootout, not hockey', () => {
    expect(readRule('A total includes overtime, except that for hockey the shootout adds no goal.', 'overtime', m('nhl', 'total'))).toMatchObject({ value: 'included' });
    // With overtime named beside the shootout, hockey is excepted.
    expect(readRule('A total includes overtime, except that for hockey the shootout and overtime are not counted.', 'overtime', m('nhl', 'total'))).toMatchObject({ value: 'excluded' });
    // A definition of the term states nothing.
    expect(readRule("In these rules 'extra play' means additional innings, periods or overtime of games.", 'overtime', m('nfl', 'spread'))).toEqual({ value: 'unknown', why: 'silent' });
  });
  it('"for all sports except hockey, ..." leaves hockey out of the statement, as "Except in the NHL, ..." does', () => {
    const text = 'Note: for all sports except hockey, final results include any overtime; for hockey, final results are taken at the end of regulation.';
    expect(readRule(text, 'overtime', m('nba', 'total'))).toMatchObject({ value: 'included' });
    expect(readRule(text, 'overtime', m('mlb', 'moneyline'))).toMatchObject({ value: 'included' });
    expect(readRule(text, 'overtime', m('nhl', 'total'))).toMatchObject({ value: 'excluded' });
    expect(readRule('In all sports except baseball, results include overtime.', 'overtime', m('mlb', 'total'))).toEqual({ value: 'unknown', why: 'silent' });
  });
  it('"the result after regulation time is used" is regulation only; a market marked as including overtime is the exception', () => {
    const text = "For betting purposes the result after regulation time is used unless the market is marked 'OT incl.'.";
    expect(readRule(text, 'overtime', m('nhl', 'moneyline'))).toMatchObject({ value: 'excluded' });
    expect(readRule('The result at the end of regulation time will be used for all hockey bets.', 'overtime', m('nhl', 'total'))).toMatchObject({ value: 'excluded' });
    expect(readRule('The regulation time result is used to settle bets.', 'overtime', m('nba', 'total'))).toMatchObject({ value: 'excluded' });
    // Overtime joined onto regulation is no regulation-only result.
    expect(readRule('The result after regulation time and overtime is used.', 'overtime', m('nhl', 'total'))).not.toMatchObject({ value: 'excluded' });
  });
  it('"the winner\'s total" is the winner\'s score, not the total market', () => {
    const text = "A shootout adds one goal to the winner's total, and overtime periods count in the final score.";
    expect(readRule(text, 'overtime', m('nhl', 'moneyline'))).toMatchObject({ value: 'included' });
    expect(readRule(text, 'overtime', m('nhl', 'spread'))).toMatchObject({ value: 'included' });
  });
});

describe('safety on the fourteenth blind batch (sentences written for these tests)', () => {
  it('a text on a sport outside the spec that sends "other sports" to their own rules states nothing for ours', () => {
    const text = "This guide explains the soccer non-starter rule. If the player does not play, the bet is void. Other sports' player markets, such as points over/under 24.5, follow their own rules.";
    expect(readRule(text, 'non_participation', m('nba', 'player_prop'))).toEqual({ value: 'unknown', why: 'silent' });
    // A text on a league of ours keeps its rule.
    const ours = "This guide explains the NBA non-starter rule. If the player does not play, the bet is void. Other sports' player markets follow their own rules.";
    expect(readRule(ours, 'non_participation', m('nba', 'player_prop'))).toMatchObject({ value: 'void' });
  });
  it('"non-" names a league\'s complement only before a league ("non-NFL"), not in "non-participating player"', () => {
    const text = 'Basketball: bets on a non-participating player are void.';
    expect(readRule(text, 'non_participation', m('nhl', 'player_prop'))).toEqual({ value: 'unknown', why: 'silent' });
    expect(readRule(text, 'non_participation', m('nba', 'player_prop'))).toMatchObject({ value: 'void' });
    expect(readRule('Non-NFL leagues: overtime counts.', 'overtime', m('nfl', 'total'))).toEqual({ value: 'unknown', why: 'silent' });
    expect(readRule('Non-NFL leagues: overtime counts.', 'overtime', m('nba', 'total'))).toMatchObject({ value: 'included' });
  });
  it('a heading naming only a sport or league outside the spec opens that sport\'s section: what follows it speaks of none of our markets', () => {
    const text = 'eAmericanFootball rules. Main markets: Moneyline, settled on the final score including overtime; Total Points, settled on the final score including overtime.';
    expect(readRule(text, 'overtime', m('nfl', 'moneyline'))).toEqual({ value: 'unknown', why: 'silent' });
    expect(readRule(text, 'overtime', m('nfl', 'total'))).toEqual({ value: 'unknown', why: 'silent' });
    const sections = 'Soccer. Match betting: settled on the result including extra time. Basketball. Match betting: settled on the result at the end of regulation.';
    expect(readRule(sections, 'overtime', m('nba', 'moneyline'))).toMatchObject({ value: 'excluded' });
    // A section of ours is read as before.
    expect(readRule('Basketball. Main markets: Moneyline, settled on the final score including overtime.', 'overtime', m('nba', 'moneyline'))).toMatchObject({ value: 'included' });
  });
  it('a push named as the outcome of a game stopped short or called off is that case\'s label, not the push rule', () => {
    const text = "Contests that end before the official time are graded 'No Action' or 'Push' and every wager is refunded.";
    expect(readRule(text, 'push', m('nhl', 'total'))).toEqual({ value: 'unknown', why: 'silent' });
    expect(readRule('A game abandoned before the final whistle is treated as a push and stakes are returned.', 'push', m('nba', 'spread'))).toEqual({ value: 'unknown', why: 'silent' });
    // The push case named first is still the push rule.
    expect(readRule('Pushes are refunded; a game that is abandoned is void.', 'push', m('nba', 'spread'))).toMatchObject({ value: 'void' });
    expect(readRule('If the final margin lands exactly on the spread, the bet is a push and stakes are refunded.', 'push', m('nfl', 'spread'))).toMatchObject({ value: 'void' });
  });
  it('"games must start on the scheduled date" is a game\'s start, not a player\'s', () => {
    const text = 'Every match must start on the scheduled date for bets to stand; otherwise they are void.';
    expect(readRule(text, 'non_participation', m('nba', 'player_prop'))).toEqual({ value: 'unknown', why: 'silent' });
    expect(readRule('All games must start at the listed time for action; otherwise bets are refunded.', 'non_participation', m('nhl', 'player_prop'))).toEqual({ value: 'unknown', why: 'silent' });
    // A player who must start is still the player's rule.
    expect(readRule('The player must start the game for bets to stand; otherwise they are void.', 'non_participation', m('nba', 'player_prop'))).toMatchObject({ value: 'void' });
  });
});

describe('stated values of the fourteenth blind batch read unknown: the kinds behind them (sentences written for these tests)', () => {
  it('"the normal duration" of a game is regulation time', () => {
    expect(readRule('Unless the market description says otherwise, bets are settled once the normal duration of the game is over.', 'overtime', m('nhl', 'total'))).toMatchObject({ value: 'excluded' });
    expect(readRule('Bets are settled on the normal duration and any overtime.', 'overtime', m('nhl', 'total'))).not.toMatchObject({ value: 'excluded' });
  });
  it('"that result carries the overtime scores" includes overtime', () => {
    expect(readRule('Every bet is settled on the official result, and that result carries the overtime scores.', 'overtime', m('nba', 'total'))).toMatchObject({ value: 'included' });
    // A market's name that carries a label is no result.
    expect(readRule("Unless a market's name carries 'incl. overtime', totals are settled after regulation.", 'overtime', m('nba', 'total'))).toMatchObject({ value: 'excluded' });
  });
  it('"the official result" is the game\'s result, as "the final score" is', () => {
    // Overtime in the game's result says nothing of a player's statistic.
    expect(readRule("Player props are settled on the player's statistics. Every bet is settled on the official result, which includes overtime.", 'overtime', m('nba', 'player_prop'))).toEqual({ value: 'unknown', why: 'silent' });
    // A sentence about the result speaks of the whole game, not of the market heading above it.
    expect(readRule('Match betting: pick the winner of the game. Every bet on a hockey game is based on the official result at the end of regulation time.', 'overtime', m('nhl', 'total'))).toMatchObject({ value: 'excluded' });
  });
  it('a game whose result cannot be determined is a player prop\'s case too; only overtime in the result says nothing of a player\'s statistic', () => {
    expect(readRule('If the game result cannot be determined within 36 hours, the bets are declared void.', 'cancellation', m('nba', 'player_prop'))).toMatchObject({ value: 'void' });
    expect(readRule('The game result includes overtime.', 'overtime', m('nba', 'player_prop'))).toEqual({ value: 'unknown', why: 'silent' });
  });
  it('"the home side" is a team, not the sides market', () => {
    const text = 'Unless the market name says otherwise, bets are settled on the result after nine innings (8.5 if the home side leads).';
    expect(readRule(text, 'overtime', m('mlb', 'total'))).toMatchObject({ value: 'excluded' });
    expect(readRule('Sides include extra innings.', 'overtime', m('mlb', 'spread'))).toMatchObject({ value: 'included' });
  });
  it('"if odds on a draw are offered" is the three-way market, "if no draw is offered" the two-way money line', () => {
    const text = 'If odds on the draw are offered and the game ends level, bets on either team lose; if no draw is offered and the game ends level, bets on both teams are void.';
    expect(readRule(text, 'tie', m('nfl', 'moneyline'))).toMatchObject({ value: 'void' });
    expect(readRule('If odds on a draw are offered and the game ends in a draw, bets on either team lose.', 'tie', m('nfl', 'moneyline'))).toEqual({ value: 'unknown', why: 'silent' });
  });
  it('"if the winner cannot be determined" names a tie, as "no winner" does', () => {
    const text = 'In two-outcome sports, if the winner cannot be determined from the result, the market is cancelled and every stake is refunded.';
    expect(readRule(text, 'tie', m('nfl', 'moneyline'))).toMatchObject({ value: 'void' });
  });
  it('"more than 44 loses" in a worked example is another result\'s outcome, not the push\'s', () => {
    const text = 'If the final score equals the total, the bet is returned. For example, on a total of 44: a combined score of 43 wins, exactly 44 is a push and the stake is returned, more than 44 loses.';
    expect(readRule(text, 'push', m('nfl', 'total'))).toMatchObject({ value: 'void' });
    expect(readRule('Pushes are refunded. With a total of 44, exactly 44 is a push and the stake is returned, more than 44 loses.', 'push', m('nfl', 'total'))).toMatchObject({ value: 'void' });
    // A loss said of the push case itself is still read.
    expect(readRule('If the combined score lands exactly on the total, the bet loses.', 'push', m('nfl', 'total'))).toMatchObject({ value: 'loses' });
  });
  it('a sentence whose colon heading names one side ("makes Boston a 6-point favourite:") leaves the sentences after it to the whole market', () => {
    const text = 'Say the spread makes Boston a 6-point favourite: Boston must win by 7 or more for its backers to win. If Boston wins by exactly 6 points, the bet is a push and stakes are returned.';
    expect(readRule(text, 'push', m('nba', 'spread'))).toMatchObject({ value: 'void' });
    // A side's own statement is still that side's.
    expect(readRule('If you back the favourite: a win by exactly the spread is a push and stakes are returned.', 'push', m('nba', 'spread'))).toEqual({ value: 'unknown', why: 'silent' });
  });
  it('"all markets that include overtime" names a class of markets, as "markets that include overtime" does, and states nothing', () => {
    const text = "All markets are for regular time only. If a game goes to a shootout, one goal is added to the winner's score; this applies to all markets that include overtime and the shootout.";
    expect(readRule(text, 'overtime', m('nhl', 'moneyline'))).toMatchObject({ value: 'excluded' });
    expect(readRule('This applies to all markets that include overtime.', 'overtime', m('nhl', 'total'))).toEqual({ value: 'unknown', why: 'silent' });
    // "All markets include overtime" is a statement.
    expect(readRule('All markets include overtime.', 'overtime', m('nhl', 'total'))).toMatchObject({ value: 'included' });
  });
  it('"all wagers" under a market heading are that market\'s wagers: the heading reaches the sentences after them', () => {
    const text = 'Basketball. Markets do not include overtime. Player props: a player who does not take part is void. A suspended game resumed the same day keeps all wagers. All overtime is included in settlement.';
    expect(readRule(text, 'overtime', m('nba', 'moneyline'))).toMatchObject({ value: 'excluded' });
    expect(readRule(text, 'overtime', m('nba', 'player_prop'))).toMatchObject({ value: 'included' });
  });
  it('an accented letter is read as its base letter ("prórroga")', () => {
    expect(readRule('Totals are settled on the final score with the prórroga included.', 'overtime', m('nba', 'total'))).toMatchObject({ value: 'included' });
  });
  it('"not added to it" denies overtime to the market the clause speaks of', () => {
    expect(readRule('Quarter bets: a 4th quarter bet covers the fourth quarter; overtime points are not added to it.', 'overtime', m('nba', 'total', 'quarter:4'))).toMatchObject({ value: 'excluded' });
    expect(readRule('Second-half bets: overtime points are added to it.', 'overtime', m('nba', 'spread', 'half:2'))).toMatchObject({ value: 'included' });
  });
  it('"la prórroga" (Spanish) names overtime', () => {
    expect(readRule('Money line: the prorroga counts, since basketball has no draws.', 'overtime', m('nba', 'moneyline'))).toMatchObject({ value: 'included' });
    expect(readRule('Totals are settled on the final score with the prorroga included.', 'overtime', m('nba', 'total'))).toMatchObject({ value: 'included' });
  });
  it('"the extra segment" names overtime, as "extra play" does', () => {
    expect(readRule('Full-game totals count the extra segment when one is played.', 'overtime', m('nba', 'total'))).toMatchObject({ value: 'included' });
    expect(readRule('Quarter lines do not include the extra segment.', 'overtime', m('nba', 'total', 'quarter:4'))).toMatchObject({ value: 'excluded' });
  });
  it('a lead-in whose list only names markets states its value for those markets, also after its own exception', () => {
    const text = 'Overtime counts (unless the market says otherwise): - Money line - Point spread - Total points.';
    expect(readRule(text, 'overtime', m('nba', 'moneyline'))).toMatchObject({ value: 'included' });
    expect(readRule(text, 'overtime', m('nba', 'total'))).toMatchObject({ value: 'included' });
    // Markets the list leaves out, and a quarter, are not read from the lead-in alone.
    expect(readRule(text, 'overtime', m('nba', 'total', 'quarter:4'))).toEqual({ value: 'unknown', why: 'silent' });
    expect(readRule('Overtime counts: - Money line - Point spread - Total points.', 'overtime', m('nba', 'team_total'))).toEqual({ value: 'unknown', why: 'silent' });
    // A colon that opens a statement of its own keeps the lead-in's statement.
    expect(readRule('Overtime is ignored: the regulation line is graded after 60 minutes.', 'overtime', m('nfl', 'moneyline'))).toMatchObject({ value: 'excluded' });
  });
});

describe('safety on the fifteenth blind batch (sentences written for these tests)', () => {
  it('a game lasting under (or less than) the official time is an interruption: a push named as its outcome is that case\'s label', () => {
    expect(readRule("Matches lasting under the official time are called 'Push/Cancel' and every stake is returned.", 'push', m('nhl', 'total'))).toEqual({ value: 'unknown', why: 'silent' });
    expect(readRule('A game that lasts less than official time is graded as a push and stakes are refunded.', 'push', m('nba', 'spread'))).toEqual({ value: 'unknown', why: 'silent' });
    // A push on the line is still the push rule.
    expect(readRule('If the total lands exactly on the line, the bet is a push and stakes are returned.', 'push', m('nhl', 'total'))).toMatchObject({ value: 'void' });
  });
  it('"Normally" opening a clause is a hedge, as "usually" is: the clause states no value', () => {
    expect(readRule('Normally bets are for regulation time without the overtime, so read the bookmaker\'s terms.', 'overtime', m('nfl', 'moneyline'))).toMatchObject({ value: 'unknown' });
    expect(readRule('Normally, totals include overtime.', 'overtime', m('nba', 'total'))).toMatchObject({ value: 'unknown' });
    // "settled normally" (as usual) is no hedge.
    expect(readRule('Moneyline bets include overtime and are settled normally.', 'overtime', m('nba', 'moneyline'))).toMatchObject({ value: 'included' });
  });
  it('"if all selections push" is a combination\'s case (its entry or parlay), not a line landed on', () => {
    expect(readRule('If an entry has several selections and all selections push, the entry amount is returned.', 'push', m('mlb', 'total'))).toEqual({ value: 'unknown', why: 'silent' });
    expect(readRule('When all legs push, the stake on the ticket is refunded.', 'push', m('nba', 'spread'))).toEqual({ value: 'unknown', why: 'silent' });
    // A single selection that pushes is the push rule.
    expect(readRule('If a selection pushes, the stake is returned.', 'push', m('nba', 'spread'))).toMatchObject({ value: 'void' });
  });
  it('a sport\'s bare name that the text itself qualifies as a sport outside the spec ("men\'s hockey", "field hockey") names that sport', () => {
    const text = "Hockey. All hockey bets are settled on 70 minutes of play. Extra time does not count. Example: Spain v Germany (women's hockey), match result.";
    expect(readRule(text, 'overtime', m('nhl', 'moneyline'))).toEqual({ value: 'unknown', why: 'silent' });
    expect(readRule('Field hockey rules. Hockey matches are settled on regulation time; extra time does not count.', 'overtime', m('nhl', 'total'))).toEqual({ value: 'unknown', why: 'silent' });
    // A text that also names ice hockey or a league of ours keeps its rule for ours.
    expect(readRule('Ice hockey: overtime does not count. This also covers field hockey.', 'overtime', m('nhl', 'total'))).toMatchObject({ value: 'excluded' });
    expect(readRule('Hockey (NHL): overtime does not count. Field hockey: the same.', 'overtime', m('nhl', 'total'))).toMatchObject({ value: 'excluded' });
    expect(readRule('Hockey. All hockey bets are settled on 60 minutes of play. Extra time does not count.', 'overtime', m('nhl', 'moneyline'))).toMatchObject({ value: 'excluded' });
  });
  it('"regardless of whether" (or "no matter whether") means "in either case": the clause is a statement, not a question', () => {
    expect(readRule('Totals include overtime, regardless of whether the game is tied after regulation.', 'overtime', m('nba', 'total'))).toMatchObject({ value: 'included' });
    expect(readRule('No matter whether the game needs extra innings, run lines are settled on the final score including them.', 'overtime', m('mlb', 'spread'))).toMatchObject({ value: 'included' });
    // Asking whether is still a question.
    expect(readRule('Check whether your totals include overtime.', 'overtime', m('nba', 'total'))).toMatchObject({ value: 'unknown' });
  });
  it('"no bets are voided", "no stakes are returned": a denied bet or stake denies the value word', () => {
    expect(readRule('If the player does not play, no bets are voided.', 'non_participation', m('nba', 'player_prop'))).toMatchObject({ value: 'unknown' });
    expect(readRule('When a total lands on the number, no stakes are returned.', 'push', m('nfl', 'total'))).toMatchObject({ value: 'unknown' });
    expect(readRule('When a total lands on the number, stakes are returned.', 'push', m('nfl', 'total'))).toMatchObject({ value: 'void' });
  });
  it('a value denied for the rule\'s case ("no bets are voided, regardless of whether the player played") contradicts that value said elsewhere', () => {
    const options = 'Settlement options: 1. No Void - no bets are voided, regardless of whether the player played. 2. Void Non Participant Players - bets are voided if the player did not take part.';
    expect(readRule(options, 'non_participation', m('nba', 'player_prop'))).toMatchObject({ value: 'unknown', why: 'contradiction' });
    expect(readRule('Bets are void if the player does not play. Stakes are not refunded when a player does not play.', 'non_participation', m('nba', 'player_prop'))).toMatchObject({ value: 'unknown', why: 'contradiction' });
    // A denial agrees with another value ("not refunded ...; they are settled as losses"), and alone states none.
    expect(readRule('If the player does not play, stakes are not refunded. A player who does not play is graded as a loss.', 'non_participation', m('nba', 'player_prop'))).toMatchObject({ value: 'loses' });
    expect(readRule('If the player does not play, stakes are not refunded.', 'non_participation', m('nba', 'player_prop'))).toMatchObject({ value: 'unknown' });
    expect(readRule('Bets are void if the player does not play.', 'non_participation', m('nba', 'player_prop'))).toMatchObject({ value: 'void' });
  });
});

describe('stated values of the fifteenth blind batch read unknown: the kinds behind them (sentences written for these tests)', () => {
  it('"under/over" names the total market, as "over/under" does (not the over side alone)', () => {
    expect(readRule('Spread and under/over bets are graded on the final score with overtime.', 'overtime', m('nba', 'total'))).toMatchObject({ value: 'included' });
    expect(readRule('Spread and under/over bets are graded on the final score with overtime.', 'overtime', m('nba', 'spread'))).toMatchObject({ value: 'included' });
    // The over side alone still settles nothing for the market.
    expect(readRule('Over bets are graded on the final score with overtime.', 'overtime', m('nba', 'total'))).toEqual({ value: 'unknown', why: 'silent' });
  });
  it('a numbered item\'s colon heading heads that item only: the next item of the same depth stands in the section before it', () => {
    const text = 'Basketball. 1. NCAA venue rule: the home team shown is for reference only. 2. Overtime counts for every bet unless stated otherwise.';
    expect(readRule(text, 'overtime', m('nba', 'moneyline'))).toMatchObject({ value: 'included' });
    // A deeper item stays under the heading above it.
    const deeper = 'Basketball. 3.1. Markets do not include overtime. 3.7. College games: a game must last 35 minutes. 3.7.1. Overtime counts.';
    expect(readRule(deeper, 'overtime', m('nba', 'moneyline'))).toMatchObject({ value: 'excluded' });
    // An unnumbered sentence after the item stays under its heading.
    expect(readRule('Basketball. 1. NCAA venue rule: the home team shown is for reference only. Overtime counts.', 'overtime', m('nba', 'moneyline'))).toEqual({ value: 'unknown', why: 'silent' });
  });
  it('"after 60 minutes" is a game\'s length, not the 60-minute (three-way) market', () => {
    expect(readRule('Hockey: bets are graded on the result after 60 minutes of regular time; overtime is not counted.', 'overtime', m('nhl', 'total'))).toMatchObject({ value: 'excluded' });
    expect(readRule('All hockey bets are graded after 60 minutes; overtime is not counted.', 'overtime', m('nhl', 'moneyline'))).toMatchObject({ value: 'excluded' });
    // The 60-minute market is still another market.
    expect(readRule('The 60-minute line is graded on regulation; overtime is not counted.', 'overtime', m('nhl', 'moneyline'))).toEqual({ value: 'unknown', why: 'silent' });
  });
  it('"the under/over" is the total market, "win/lose" the two-way money line, "win/draw/lose" the three-way market', () => {
    expect(readRule('If the score lands exactly on the under/over line, the bet is void and the stake is returned.', 'push', m('nba', 'total'))).toMatchObject({ value: 'void' });
    expect(readRule('The win/lose bet is settled including overtime.', 'overtime', m('nhl', 'moneyline'))).toMatchObject({ value: 'included' });
    expect(readRule('The win/draw/lose bet is settled on regulation time only.', 'overtime', m('nhl', 'moneyline'))).toEqual({ value: 'unknown', why: 'silent' });
  });
  it('", while" coordinates a statement whose subject is a market of its own, ours or another ("..., while the three-way bet is settled on regulation")', () => {
    const text = 'The two-way winner bet includes overtime and the shootout, while the three-way bet is settled on regulation time only.';
    expect(readRule(text, 'overtime', m('nhl', 'moneyline'))).toMatchObject({ value: 'included' });
    expect(readRule('Totals include overtime, while quarter bets are settled on the quarter alone.', 'overtime', m('nba', 'total'))).toMatchObject({ value: 'included' });
  });
  it('"the stake goes back" is the stake refunded, as "the stake comes back" is', () => {
    expect(readRule('If the margin lands exactly on the spread, the bet is neither won nor lost and your stake goes back to you.', 'push', m('nfl', 'spread'))).toMatchObject({ value: 'void' });
    expect(readRule('If the player does not play, the money goes back to your account.', 'non_participation', m('nba', 'player_prop'))).toMatchObject({ value: 'void' });
  });
  it('"the nine regulation innings only" (or periods) is regulation time only', () => {
    expect(readRule('Run lines count the nine regulation innings only.', 'overtime', m('mlb', 'spread'))).toMatchObject({ value: 'excluded' });
    expect(readRule('Totals are graded on the three regulation periods only.', 'overtime', m('nhl', 'total'))).toMatchObject({ value: 'excluded' });
  });
  it('"all contest actions" (a sweepstakes book\'s word for its bets) are all bets: the subject takes no market heading\'s market', () => {
    const text = 'Moneyline payoff: -120 means $120 staked to win $100. All contest actions include overtime unless otherwise stated.';
    expect(readRule(text, 'overtime', m('nfl', 'spread'))).toMatchObject({ value: 'included' });
    expect(readRule(text, 'overtime', m('nfl', 'moneyline'))).toMatchObject({ value: 'included' });
  });
  it('"none of the points scored in it count": a denied subject reaches a value up to eight words after it', () => {
    expect(readRule('When a game goes to overtime, none of the points scored in it count toward the handicap.', 'overtime', m('nba', 'spread'))).toMatchObject({ value: 'excluded' });
    // A denial about something else far before the value denies nothing.
    expect(readRule('None of these rules change in the playoffs, and overtime counts.', 'overtime', m('nba', 'spread'))).toMatchObject({ value: 'included' });
  });
  it('a clause that only asks whether ("this article explains whether overtime points count") hedges nothing: the answer the text gives is read', () => {
    const text = 'This article explains whether overtime points count toward NBA handicap markets. NBA handicap markets exclude overtime points.';
    expect(readRule(text, 'overtime', m('nba', 'spread'))).toMatchObject({ value: 'excluded' });
    // A hedge is still a hedge.
    expect(readRule('Check whether overtime points count toward NBA handicap markets. NBA handicap markets exclude overtime points.', 'overtime', m('nba', 'spread'))).toMatchObject({ value: 'unknown', why: 'hedged' });
    // The question alone states nothing.
    expect(readRule('This article explains whether overtime points count toward the result.', 'overtime', m('nba', 'spread'))).toEqual({ value: 'unknown', why: 'silent' });
  });
  it('a parenthesis after a market noun that opens with a market noun defines those markets ("two-way markets (bets with two options to choose from)") and names no scope of its own', () => {
    const text = 'In two-way markets (bets with two options to choose from) the push rule applies: stakes on a result exactly on the line are returned.';
    expect(readRule(text, 'push', m('nba', 'team_total'))).toMatchObject({ value: 'void' });
    // "two options" said of a choice of markets still blocks.
    expect(readRule('For NHL games there are two options, regulation time and overtime included: the push rule applies.', 'push', m('nhl', 'total'))).toEqual({ value: 'unknown', why: 'silent' });
  });
  it('"any Game bet" is a full-game bet, as "full-game bets" are', () => {
    const text = 'Overtime is included for any Game bet or 2nd Half bet, unless stated otherwise. 4th Quarter betting does not include overtime.';
    expect(readRule(text, 'overtime', m('nba', 'moneyline'))).toMatchObject({ value: 'included' });
    expect(readRule(text, 'overtime', m('nba', 'total', 'quarter:4'))).toMatchObject({ value: 'excluded' });
  });
  it('a market outside the spec coordinated with one of ours ("the three-way bet and the total") leaves the statement standing for ours', () => {
    const text = 'The three-way bet and the total are settled on regulation time only.';
    expect(readRule(text, 'overtime', m('nhl', 'total'))).toMatchObject({ value: 'excluded' });
    // The market outside the spec alone still blocks, and ours not named stays unread.
    expect(readRule(text, 'overtime', m('nhl', 'moneyline'))).toEqual({ value: 'unknown', why: 'silent' });
    expect(readRule('The three-way bet is settled on regulation time only.', 'overtime', m('nhl', 'total'))).toEqual({ value: 'unknown', why: 'silent' });
  });
});


describe('safety on the development parts\' silent rows read known (sentences written for these tests)', () => {
  it('a clause whose subject is the result ("Results are those of regulation time") states nothing of overtime for a player prop, whose statistic it does not settle', () => {
    const text = 'Results are those formed in regular time, excluding overtime, unless stated otherwise.';
    expect(readRule(text, 'overtime', m('nba', 'player_prop'))).toEqual({ value: 'unknown', why: 'silent' });
    expect(readRule('The result is the one formed in regular time, excluding overtime.', 'overtime', m('nhl', 'player_prop'))).toEqual({ value: 'unknown', why: 'silent' });
    // The game's lines are settled on it.
    expect(readRule(text, 'overtime', m('nba', 'total'))).toMatchObject({ value: 'excluded' });
    // Bets as the subject hold every bet, a prop among them.
    expect(readRule('Bets are settled on the result formed in regular time, excluding overtime.', 'overtime', m('nba', 'player_prop'))).toMatchObject({ value: 'excluded' });
  });
  it('a bet named by a demonstrative ("this wager") is the one the clause before named, the players\' bets when it named players', () => {
    const text = 'The players named must dress for action; goals in overtime count toward this wager.';
    expect(readRule(text, 'overtime', m('nhl', 'moneyline'))).toEqual({ value: 'unknown', why: 'silent' });
    expect(readRule(text, 'overtime', m('nhl', 'player_prop'))).toMatchObject({ value: 'included' });
    const game = 'Team totals are graded on the full game; overtime counts toward this bet.';
    expect(readRule(game, 'overtime', m('nhl', 'moneyline'))).toEqual({ value: 'unknown', why: 'silent' });
    expect(readRule(game, 'overtime', m('nhl', 'team_total'))).toMatchObject({ value: 'included' });
  });
});

describe('stated values of the sixteenth blind batch read unknown: the kinds behind them (sentences written for these tests)', () => {
  it('"the score after overtime" is the result with overtime, as "the result after overtime" is', () => {
    expect(readRule('Every game bet is graded on the score after any overtime has been played, unless marked otherwise.', 'overtime', m('nba', 'spread'))).toMatchObject({ value: 'included' });
    expect(readRule('Money line bets are decided by the score after extra innings.', 'overtime', m('mlb', 'moneyline'))).toMatchObject({ value: 'included' });
    // The score after regulation is still regulation only.
    expect(readRule('Money line bets are decided by the score after regulation time.', 'overtime', m('nhl', 'moneyline'))).toMatchObject({ value: 'excluded' });
  });
  it('"(60 minutes)" right after a name of regulation restates its length and is not the 60-minute market', () => {
    const text = 'Ice hockey: all bets are graded on the result after normal time (60 minutes); extra time and penalty shots do not count.';
    expect(readRule(text, 'overtime', m('nhl', 'moneyline'))).toMatchObject({ value: 'excluded' });
    expect(readRule(text, 'overtime', m('nhl', 'total'))).toMatchObject({ value: 'excluded' });
    // The 60-minute market itself still blocks.
    expect(readRule('The 60 minute line is graded on normal time; extra time does not count.', 'overtime', m('nhl', 'moneyline'))).toEqual({ value: 'unknown', why: 'silent' });
  });
  it('"the head to head" between the two teams is the money line; with a handicap it is the spread; a player head to head is a player market', () => {
    expect(readRule('In hockey the head to head counts overtime and the shootout.', 'overtime', m('nhl', 'moneyline'))).toMatchObject({ value: 'included' });
    expect(readRule('In hockey the head to head counts overtime and the shootout.', 'overtime', m('nhl', 'total'))).toEqual({ value: 'unknown', why: 'silent' });
    expect(readRule('Head to head with handicap: any overtime counts.', 'overtime', m('nba', 'spread'))).toMatchObject({ value: 'included' });
    expect(readRule('Head to head with handicap: any overtime counts.', 'overtime', m('nba', 'moneyline'))).toEqual({ value: 'unknown', why: 'silent' });
    expect(readRule('Player head to head bets: any overtime counts.', 'overtime', m('nba', 'moneyline'))).toEqual({ value: 'unknown', why: 'silent' });
  });
  it('"depends on" what is played ("the team that wins", "the whole match") says what decides the bet and hedges nothing; "depends on" a market or a book still hedges', () => {
    expect(readRule('The winner bet depends on the whole game, overtime included.', 'overtime', m('nba', 'moneyline'))).toMatchObject({ value: 'included' });
    expect(readRule('Money line bets: the outcome depends on the final score, including overtime.', 'overtime', m('nhl', 'moneyline'))).toMatchObject({ value: 'included' });
    expect(readRule('Whether overtime is included depends on the market.', 'overtime', m('nba', 'moneyline'))).toMatchObject({ value: 'unknown', why: 'hedged' });
    expect(readRule('Overtime included or not depends on the sportsbook.', 'overtime', m('nba', 'total'))).toMatchObject({ value: 'unknown', why: 'hedged' });
  });
  it('a sport named to compare with ("similar to football\'s", "as in football") is not the sport the clause speaks of', () => {
    expect(readRule("Handicap bets, as in football, count any overtime.", 'overtime', m('nba', 'spread'))).toMatchObject({ value: 'included' });
    expect(readRule("Handicap bets, unlike football, count any overtime.", 'overtime', m('nba', 'spread'))).toMatchObject({ value: 'included' });
    // A sport named as the subject still scopes the clause.
    expect(readRule('Football handicap bets count any overtime.', 'overtime', m('nba', 'spread'))).toEqual({ value: 'unknown', why: 'silent' });
  });
  it('a parenthesis inside a condition that opens no condition ("if at the end of the game (any overtime included) ...") is a statement, not part of the case', () => {
    const text = 'Handicap: if at the close of the game (any overtime included) your team still leads after the handicap, the bet wins.';
    expect(readRule(text, 'overtime', m('nba', 'spread'))).toMatchObject({ value: 'included' });
    // A parenthesis that opens a condition is still a case.
    expect(readRule('Handicap: if the game is tied (if overtime is included, after it), bets are void.', 'overtime', m('nba', 'spread'))).toEqual({ value: 'unknown', why: 'silent' });
  });
});

describe('safety on the seventeenth blind batch (sentences written for these tests)', () => {
  it('a bet "including overtime" that must be indicated (marked, labelled) as such in its line is a labelled market: its words state no rule for an unmarked line', () => {
    expect(readRule('A wager on the winner including overtime and shootouts must be indicated as such in the line.', 'overtime', m('nhl', 'moneyline'))).toEqual({ value: 'unknown', why: 'silent' });
    expect(readRule('Totals that include overtime are marked as such on the coupon.', 'overtime', m('nhl', 'total'))).toEqual({ value: 'unknown', why: 'silent' });
    // A market that includes overtime, no label named, is the rule.
    expect(readRule('Money line wagers include overtime and shootouts.', 'overtime', m('nhl', 'moneyline'))).toMatchObject({ value: 'included' });
  });
});

describe('wrong values of the seventeenth blind batch: the clause structures behind them (sentences written for these tests)', () => {
  it('a negation inside a relative clause of the subject ("which has no draw") denies that clause\'s object, not the main verb', () => {
    expect(readRule('The money line, which has no draw, counts overtime and the shootout.', 'overtime', m('nhl', 'moneyline'))).toMatchObject({ value: 'included' });
    expect(readRule('Moneyline bets, which offer no tie option, include overtime.', 'overtime', m('nhl', 'moneyline'))).toMatchObject({ value: 'included' });
    // The relative clause's own verb denied is the value denied.
    expect(readRule('The money line, which does not count overtime, is settled on regulation.', 'overtime', m('nhl', 'moneyline'))).toMatchObject({ value: 'excluded' });
    expect(readRule('The money line, which has no overtime included, pays at fixed odds.', 'overtime', m('nhl', 'moneyline'))).toMatchObject({ value: 'excluded' });
  });
});

describe('wrong values of the seventeenth blind batch: list items (sentences written for these tests)', () => {
  it('a list item "quarter and half-time/full-time bets" names the quarter and a market outside the spec: the exception holds the quarter', () => {
    const text = 'Basketball: overtime is counted in all bets except first-half, quarter and half-time/full-time bets.';
    expect(readRule(text, 'overtime', m('nba', 'total', 'quarter:4'))).toMatchObject({ value: 'excluded' });
    expect(readRule(text, 'overtime', m('nba', 'total'))).toMatchObject({ value: 'included' });
    expect(readRule('Overtime counts for every wager except 1st half, quarter and winning margin bets.', 'overtime', m('nba', 'spread', 'quarter:4'))).toMatchObject({ value: 'excluded' });
    // An item that goes on with a statement of its own is read whole.
    expect(readRule('Overtime counts for moneylines, and the 1X2, Total Goals Range and Double Chance markets do not include overtime.', 'overtime', m('nhl', 'moneyline'))).toMatchObject({ value: 'included' });
  });
});

describe('silent rows of the seventeenth blind batch read known: the kinds behind them (sentences written for these tests)', () => {
  it('a condition naming a line by the basis it is on ("if the line is on regular time") is a kind of market of its own: its statement is no rule for every line', () => {
    const text = "Hockey: if the line is on regular time, goals scored in overtime are not counted, and a player's goal in overtime does not count for such a line.";
    expect(readRule(text, 'overtime', m('nhl', 'player_prop'))).toEqual({ value: 'unknown', why: 'silent' });
    expect(readRule('When bets are for regulation time, overtime goals do not count.', 'overtime', m('nhl', 'total'))).toEqual({ value: 'unknown', why: 'silent' });
    // A condition on the game, not on the line's basis, leaves the statement standing.
    expect(readRule('If the game goes to overtime, goals scored in overtime are not counted.', 'overtime', m('nhl', 'total'))).toMatchObject({ value: 'excluded' });
  });
  it('a phrase with no gap read across the end of a leading condition ("... in three periods, overtime is ordered") is no value: a description of how overtime is played', () => {
    expect(readRule('Hockey allows no draw: when the teams cannot find a winner in three periods, overtime, extra time, is ordered.', 'overtime', m('nhl', 'moneyline'))).toEqual({ value: 'unknown', why: 'silent' });
    expect(readRule('If nobody leads after four quarters, overtime is played until a winner is found.', 'overtime', m('nba', 'moneyline'))).toEqual({ value: 'unknown', why: 'silent' });
    // Inside one clause the same words are the rule.
    expect(readRule('Money line bets are on three periods plus overtime.', 'overtime', m('nhl', 'moneyline'))).toMatchObject({ value: 'included' });
  });
  it('bets defined as those "where the final result is what counts" are the game\'s lines: their overtime rule says nothing of a half', () => {
    const text = 'Basketball: except bets that have a draw option, for the other bets, where the final result is what counts, overtime is also counted in the result.';
    expect(readRule(text, 'overtime', m('nba', 'moneyline', 'half:2'))).toEqual({ value: 'unknown', why: 'silent' });
    expect(readRule(text, 'overtime', m('nba', 'moneyline'))).toMatchObject({ value: 'included' });
  });
});

describe('wrong values of the eighteenth blind batch: markets named by their result (sentences written for these tests)', () => {
  it('the "two-way result" (2-way result) is the money line: its overtime rule says nothing of a total or a team total', () => {
    const text = 'Bets accepted on the two-way result (home team wins / away team wins) are recorded counting overtime and penalty shots.';
    expect(readRule(text, 'overtime', m('nhl', 'total'))).toEqual({ value: 'unknown', why: 'silent' });
    expect(readRule(text, 'overtime', m('nhl', 'team_total'))).toEqual({ value: 'unknown', why: 'silent' });
    expect(readRule('Wagers on the 2-way result include overtime and the shootout.', 'overtime', m('nhl', 'total'))).toEqual({ value: 'unknown', why: 'silent' });
    expect(readRule(text, 'overtime', m('nhl', 'moneyline'))).toMatchObject({ value: 'included' });
  });
});

describe('wrong values of the eighteenth blind batch: a claim quoted to be refuted (sentences written for these tests)', () => {
  it('a quoted sentence that the next sentence calls false ("False", "Not true", "Wrong") states no rule; the refutation after it is read', () => {
    const text = "Myth 2: 'Overtime never counts for your wager.' False for full-game bets: moneylines and totals all include overtime.";
    expect(readRule(text, 'overtime', m('nfl', 'moneyline'))).toMatchObject({ value: 'included' });
    expect(readRule(text, 'overtime', m('nfl', 'total'))).toMatchObject({ value: 'included' });
    expect(readRule('"Overtime does not count for spreads." Not true: the spread includes overtime.', 'overtime', m('nba', 'spread'))).toMatchObject({ value: 'included' });
    // The refutation speaks of what the claim spoke of (the spread), not of every line.
    const spread = "Myth: 'If the favourite wins by exactly the spread, I lose.' False: with a whole number a win by exactly the spread is a push and the stake is returned.";
    expect(readRule(spread, 'push', m('nfl', 'spread'))).toMatchObject({ value: 'void' });
    const bare = "Myth: 'If the favourite wins by exactly the spread, I lose.' False: a three-point win is a push and the stake is returned.";
    expect(readRule(bare, 'push', m('nfl', 'total'))).toEqual({ value: 'unknown', why: 'silent' });
    // Refuted and nothing said in its place: silent.
    expect(readRule("'Totals exclude overtime.' Wrong.", 'overtime', m('nhl', 'total'))).toEqual({ value: 'unknown', why: 'silent' });
    // "False start" is a penalty, not a refutation.
    expect(readRule('Overtime does not count for totals. False starts are penalties of five yards.', 'overtime', m('nfl', 'total'))).toMatchObject({ value: 'excluded' });
  });
});

describe('negation words inside a market\'s name (sentences written for these tests)', () => {
  it('the "no" of "draw no bet" (and of "no draw offered") names the market and denies no value', () => {
    expect(readRule('The draw no bet market includes overtime.', 'overtime', m('nhl', 'moneyline'))).toMatchObject({ value: 'included' });
    expect(readRule('Markets offered: Draw No Bet (incl. overtime); Total.', 'overtime', m('nhl', 'moneyline'))).toMatchObject({ value: 'included' });
    // A negation of the verb itself still turns it.
    expect(readRule('The draw no bet market does not include overtime.', 'overtime', m('nhl', 'moneyline'))).toMatchObject({ value: 'excluded' });
  });
});

describe('silent rows of the eighteenth blind batch read known: market labels (sentences written for these tests)', () => {
  it('a market labelled as including overtime ("Total (incl. overtime):") is the full game\'s: its rules say nothing of a quarter or a half', () => {
    const text = 'Bets offered. Total (incl. overtime): if the total points equal the line, the bet is refunded. 4th quarter total: overtime is not included.';
    expect(readRule(text, 'push', m('nfl', 'total', 'quarter:4'))).toEqual({ value: 'unknown', why: 'silent' });
    expect(readRule(text, 'push', m('nfl', 'total'))).toMatchObject({ value: 'void' });
    expect(readRule('Handicap (including extra time): a result equal to the line is a push, stakes returned.', 'push', m('nba', 'spread', 'half:1'))).toEqual({ value: 'unknown', why: 'silent' });
    // A period named beside the label keeps its own scope.
    expect(readRule('2nd half total (incl. overtime): if the points equal the line, the bet is refunded.', 'push', m('nba', 'total', 'half:2'))).toMatchObject({ value: 'void' });
  });
});

describe('silent rows of the eighteenth blind batch read known: another sport by its length of play (sentences written for these tests)', () => {
  it('a bare sport name ("hockey") whose game the text says lasts longer than any league of ours plays it (70 minutes) is another sport of that name: its rules are none of ours', () => {
    const text = 'Hockey. 1) First goal: a player who never came onto the pitch is a non-participant. 2) All hockey bets are settled after 70 minutes of play unless stated otherwise, and extra time is not taken into account.';
    expect(readRule(text, 'overtime', m('nhl', 'moneyline'))).toEqual({ value: 'unknown', why: 'silent' });
    expect(readRule(text, 'overtime', m('nhl', 'total'))).toEqual({ value: 'unknown', why: 'silent' });
    expect(readRule('Football. All football bets are settled on 90 minutes of play; extra time does not count.', 'overtime', m('nfl', 'moneyline'))).toEqual({ value: 'unknown', why: 'silent' });
    // A length of ours leaves the text ours.
    expect(readRule('Hockey. All hockey bets are settled after 60 minutes of play, and overtime is not taken into account.', 'overtime', m('nhl', 'moneyline'))).toMatchObject({ value: 'excluded' });
    // A longer length in a sentence about another sport qualifies nothing of ours.
    expect(readRule('Hockey: all hockey bets include overtime. Soccer is settled on 90 minutes.', 'overtime', m('nhl', 'moneyline'))).toMatchObject({ value: 'included' });
  });
});

describe('stated values of the eighteenth blind batch read unknown: the kinds behind them (sentences written for these tests)', () => {
  it('"odds of 1" and "odds 1" (a whole number, not the start of "odds of 1.90") are the stake back, as "odds of 1.00" is', () => {
    expect(readRule('If the game ends level after overtime, money line bets are settled at odds 1.', 'tie', m('nfl', 'moneyline'))).toMatchObject({ value: 'void' });
    expect(readRule('If the player does not take part in the match, bets on him are returned at odds of 1.', 'non_participation', m('wnba', 'player_prop'))).toMatchObject({ value: 'void' });
    expect(readRule('If the total equals the line exactly, the bet is settled at odds of 1.', 'push', m('nba', 'total'))).toMatchObject({ value: 'void' });
    expect(readRule('If the player does not take part in the match, the bet is paid at odds of 1.90.', 'non_participation', m('wnba', 'player_prop'))).not.toMatchObject({ value: 'void' });
  });
  it('a number of goals or runs that "equals the offered limit" (a Balkan book\'s word for the line) is a push', () => {
    expect(readRule('Total runs: if the number of runs equals the offered limit, the bet is returned at odds of 1.', 'push', m('mlb', 'total'))).toMatchObject({ value: 'void' });
    expect(readRule('If the goals scored are equal to the offered limit, stakes are refunded.', 'push', m('nhl', 'total'))).toMatchObject({ value: 'void' });
  });
  it('a result that is level "with the handicap added" is a push, as one level with the handicap applied is', () => {
    expect(readRule('Handicap: if the result with the handicap added is level, the bet is returned at odds of 1.', 'push', m('nfl', 'spread'))).toMatchObject({ value: 'void' });
    expect(readRule('If the score with the spread added ends in a tie, stakes are refunded.', 'push', m('nba', 'spread'))).toMatchObject({ value: 'void' });
  });
  it('a player who "does not come to bat" or "does not come onto the court / ice" does not take part', () => {
    expect(readRule('A batter\'s bet has action only if he appears; if he does not come to bat, the bet is voided and the stake returned.', 'non_participation', m('mlb', 'player_prop'))).toMatchObject({ value: 'void' });
    expect(readRule('If the player never comes onto the court, bets on him are cancelled.', 'non_participation', m('nba', 'player_prop'))).toMatchObject({ value: 'void' });
    expect(readRule('If the skater does not come onto the ice, his bets are void.', 'non_participation', m('nhl', 'player_prop'))).toMatchObject({ value: 'void' });
  });
  it('"O/U" is the total market, as "over/under" is ("player O/U" a player\'s line)', () => {
    const text = "Moneyline: 'resolves to the team that wins'; O/U: 'the combined final score, including any overtime periods'.";
    expect(readRule(text, 'overtime', m('nba', 'total'))).toMatchObject({ value: 'included' });
    expect(readRule('Player O/U markets count overtime.', 'overtime', m('nba', 'total'))).toEqual({ value: 'unknown', why: 'silent' });
  });
  it('a bet "processed at 1.0" or "counted at 1.00" (a Korean guide\'s words, no "odds") is the stake back', () => {
    expect(readRule('A final score that lands exactly on the under/over line is processed at 1.0.', 'push', m('nba', 'total'))).toMatchObject({ value: 'void' });
    expect(readRule('In under/over, a final score exactly on the line is settled as a special case, at 1.00.', 'push', m('mlb', 'total'))).toMatchObject({ value: 'void' });
  });
});

describe('the seventeenth blind batch\'s last silent rows read known: the kinds behind them (sentences written for these tests)', () => {
  it('a tie placed at the end of regulation ("level after regular time") is no tie rule of a market the text includes overtime in', () => {
    const text = 'Markets: Winner (overtime included) - home or away. Draw no bet - should the game finish level after regulation time, stakes are refunded.';
    expect(readRule(text, 'tie', m('nfl', 'moneyline'))).toEqual({ value: 'unknown', why: 'silent' });
    expect(readRule('Money line bets include overtime. If the teams are tied at the end of regulation, money line bets are void.', 'tie', m('nfl', 'moneyline'))).toEqual({ value: 'unknown', why: 'silent' });
    // A tie after regulation and overtime is the market's own tie.
    expect(readRule('Money line bets include overtime. If the game is tied after regulation and overtime, money line bets are void.', 'tie', m('nfl', 'moneyline'))).toMatchObject({ value: 'void' });
    // A market settled on regulation, or one the text gives no basis, keeps its tie at regulation's end.
    expect(readRule('Money line bets exclude overtime. If the teams are tied at the end of regulation, money line bets are void.', 'tie', m('nfl', 'moneyline'))).toMatchObject({ value: 'void' });
    expect(readRule('If the teams are tied at the end of regulation, money line bets are void.', 'tie', m('nfl', 'moneyline'))).toMatchObject({ value: 'void' });
  });
  it('a sentence whose subject is "it", naming no market, speaks of the market a sentence before it named, not of every market', () => {
    const text = 'The most common basketball wager is the moneyline. You pick the side you think will win. It runs to the end of the game, overtime included.';
    expect(readRule(text, 'overtime', m('nba', 'moneyline'))).toMatchObject({ value: 'included' });
    expect(readRule(text, 'overtime', m('nba', 'total'))).toEqual({ value: 'unknown', why: 'silent' });
    expect(readRule(text, 'overtime', m('nba', 'player_prop'))).toEqual({ value: 'unknown', why: 'silent' });
    // With no market named before, "it" is read as before.
    expect(readRule('Basketball. It is settled with overtime included.', 'overtime', m('nba', 'total'))).toMatchObject({ value: 'included' });
  });
});

describe('stated values of the seventeenth and sixteenth blind batches read unknown: the kinds behind them (sentences written for these tests)', () => {
  it('"the 60 minutes of regular time" restates the length of regulation: it is not the 60-minute market', () => {
    expect(readRule('Hockey wagers are graded on the score after the 60 minutes of regulation; overtime goals are not counted.', 'overtime', m('nhl', 'total'))).toMatchObject({ value: 'excluded' });
    expect(readRule('Every NHL bet is decided on the 60 minutes of normal time; overtime is not included.', 'overtime', m('nhl', 'moneyline'))).toMatchObject({ value: 'excluded' });
    // The 60-minute market itself is still a market outside the spec.
    expect(readRule('60 minute betting: overtime goals are not counted.', 'overtime', m('nhl', 'total'))).toEqual({ value: 'unknown', why: 'silent' });
  });
  it('"player", what the market counts and a market noun ("player goal and point markets", "player shots bets") name a player\'s market', () => {
    const text = 'Hockey wagers are graded on regulation time. Player assist and save wagers include overtime.';
    expect(readRule(text, 'overtime', m('nhl', 'player_prop'))).toMatchObject({ value: 'included' });
    expect(readRule(text, 'overtime', m('nhl', 'total'))).toMatchObject({ value: 'excluded' });
    expect(readRule('Basketball bets include overtime. Player rebounds bets do not count overtime.', 'overtime', m('nba', 'player_prop'))).toMatchObject({ value: 'excluded' });
    // A player as the subject of a clause is no market.
    expect(readRule('Hockey wagers are graded on regulation time. If a player scores goals in overtime, bets count them.', 'overtime', m('nhl', 'player_prop'))).toMatchObject({ value: 'excluded' });
  });
  it('markets said to be included in "all markets" ("all bets, quarter bets included, ...") are among them, not the clause\'s scope', () => {
    const text = 'Unless noted, all wagers, first-half wagers included, are graded on the final score including overtime.';
    expect(readRule(text, 'overtime', m('nba', 'total'))).toMatchObject({ value: 'included' });
    expect(readRule(text, 'overtime', m('nba', 'moneyline'))).toMatchObject({ value: 'included' });
    // A clause naming its own period, with no "all", keeps it.
    expect(readRule('Second-half wagers are graded on the final score including overtime.', 'overtime', m('nba', 'total'))).toEqual({ value: 'unknown', why: 'silent' });
  });
  it('a result named in a list of markets ("the match result, the handicap and the total") is the result market, the money line', () => {
    expect(readRule('The game result, the spread and the total include overtime.', 'overtime', m('nba', 'moneyline'))).toMatchObject({ value: 'included' });
    expect(readRule('Run lines and the match result are graded with extra innings.', 'overtime', m('mlb', 'moneyline'))).toMatchObject({ value: 'included' });
    // The result as what a market settles on names no market of its own.
    expect(readRule('Totals are settled on the official result at the end of the match, overtime included.', 'overtime', m('nba', 'moneyline'))).toEqual({ value: 'unknown', why: 'silent' });
  });
  it('"only regular time" ("considers only regular time", "look at only normal time") is regulation only, unless overtime is joined on', () => {
    expect(readRule('Puck line bets take into consideration only regulation time.', 'overtime', m('nhl', 'spread'))).toMatchObject({ value: 'excluded' });
    expect(readRule('Hockey totals look at only normal time.', 'overtime', m('nhl', 'total'))).toMatchObject({ value: 'excluded' });
    expect(readRule('Hockey totals look at only normal time plus overtime.', 'overtime', m('nhl', 'total'))).toMatchObject({ value: 'included' });
  });
  it('", and every other hockey market is on regular time" is a statement of its own about the markets left: the clause before keeps its market', () => {
    const text = 'Hockey: the moneyline counts overtime and the shootout, and every other NHL market is on regulation time.';
    expect(readRule(text, 'overtime', m('nhl', 'total'))).toMatchObject({ value: 'excluded' });
    expect(readRule(text, 'overtime', m('nhl', 'moneyline'))).toMatchObject({ value: 'included' });
    expect(readRule('Basketball totals are on regular time.', 'overtime', m('nba', 'total'))).toMatchObject({ value: 'excluded' });
    expect(readRule('Basketball totals are on regular time and overtime.', 'overtime', m('nba', 'total'))).toMatchObject({ value: 'included' });
  });
  it('"without any extra time", "without extra innings" is excluded, as "without overtime" is', () => {
    expect(readRule('Baseball totals stand on the final tally, without any extra innings.', 'overtime', m('mlb', 'total'))).toMatchObject({ value: 'excluded' });
    expect(readRule('Hockey totals pay out without any extra time.', 'overtime', m('nhl', 'total'))).toMatchObject({ value: 'excluded' });
  });
  it('"the most popular bets" is a superlative, not a hedge over some markets as "most bets" is', () => {
    expect(readRule('Moneyline wagers are the most popular bets in basketball and include overtime.', 'overtime', m('nba', 'moneyline'))).toMatchObject({ value: 'included' });
    // The quantifier still withdraws.
    expect(readRule('Most basketball bets include overtime.', 'overtime', m('nba', 'moneyline'))).toMatchObject({ value: 'unknown', why: 'hedged' });
  });
  it('"settled at odds 1" is the stake back, as "odds 1.00" is; "odds 1.50" is not odds 1 (a number matches only whole)', () => {
    expect(readRule('When the final total equals the line exactly, wagers are paid at odds 1.', 'push', m('nba', 'total'))).toMatchObject({ value: 'void' });
    expect(readRule('If the listed player does not play, the wager stands at odds of 1.', 'non_participation', m('nba', 'player_prop'))).toMatchObject({ value: 'void' });
    expect(readRule('When the final total equals the line exactly, wagers are paid at odds 1.00.', 'push', m('nba', 'total'))).toMatchObject({ value: 'void' });
    expect(readRule('When the final total equals the line exactly, wagers are paid at odds 1.50.', 'push', m('nba', 'total'))).toEqual({ value: 'unknown', why: 'silent' });
  });
  it('a game ending with exactly the combined score set is the push case', () => {
    expect(readRule('If the teams finish with exactly the combined score predicted, wagers are refunded.', 'push', m('nba', 'total'))).toMatchObject({ value: 'void' });
    expect(readRule('Should the game end with exactly that combined score, the bet is returned.', 'push', m('nfl', 'total'))).toMatchObject({ value: 'void' });
  });
  it('a player who "does not come on" or "did not enter the game" is a player who does not take part', () => {
    expect(readRule('Should the player not come on at all, his bets are void.', 'non_participation', m('nba', 'player_prop'))).toMatchObject({ value: 'void' });
    expect(readRule('If a player never enters the match, wagers on him are refunded.', 'non_participation', m('nhl', 'player_prop'))).toMatchObject({ value: 'void' });
    // A game that does not come on is no player's absence.
    expect(readRule('Bets are void if the game does not come on.', 'non_participation', m('nba', 'player_prop'))).toEqual({ value: 'unknown', why: 'silent' });
  });
  it('"odds of one" is odds 1.00, the stake back', () => {
    expect(readRule('A player who is not in the lineup gets odds of one on all his bets.', 'non_participation', m('nba', 'player_prop'))).toMatchObject({ value: 'void' });
  });
  it('"only ... in overtime count" read across "and" is no market on overtime alone: "one team only, and that team\'s points in overtime count"', () => {
    expect(readRule('Team totals: you back the points of a single team only, and that team\'s points in overtime count.', 'overtime', m('nba', 'team_total'))).toMatchObject({ value: 'included' });
    // The market on overtime alone is still no rule.
    expect(readRule('Overtime goals market: only goals scored in overtime count.', 'overtime', m('nhl', 'total'))).toEqual({ value: 'unknown', why: 'silent' });
  });
  it('"winner" listed among markets ("(winner, handicap, under/over)") is the winner market, the money line', () => {
    expect(readRule('Game markets (winner, spread, totals) include overtime.', 'overtime', m('nba', 'moneyline'))).toMatchObject({ value: 'included' });
    // The winner of the shootout names no market.
    expect(readRule('The winner of the shootout is credited with one goal.', 'overtime', m('nhl', 'total'))).toMatchObject({ value: 'included' });
  });
  it('a hedged clause saying where overtime is played ("overtime is played in most leagues, the NBA included") describes the sport: it takes back no statement', () => {
    const text = 'Overtime points count toward the game total; overtime is played in most professional leagues, the WNBA included, when the score is level.';
    expect(readRule(text, 'overtime', m('wnba', 'total'))).toMatchObject({ value: 'included' });
    // A hedged statement of settlement still withdraws.
    expect(readRule('Overtime points count toward the game total; overtime is usually excluded from quarter bets.', 'overtime', m('wnba', 'total', 'quarter:4'))).toMatchObject({ value: 'unknown', why: 'hedged' });
  });
  it('bets "made on regular time" are settled on regulation; "made on regulation time markets" names markets, not a basis', () => {
    expect(readRule('All hockey wagers are made on normal time.', 'overtime', m('nhl', 'total'))).toMatchObject({ value: 'excluded' });
    expect(readRule('Hockey wagers are made on regulation and overtime.', 'overtime', m('nhl', 'total'))).toMatchObject({ value: 'included' });
    expect(readRule('Bets made on regulation time markets are final.', 'overtime', m('nhl', 'total'))).toEqual({ value: 'unknown', why: 'silent' });
  });
  it('a contract that settles at its "last traded price" on a cancelled game is the fair-price settlement', () => {
    expect(readRule('Should the game be called off and not replayed, this contract resolves at the last traded price.', 'cancellation', m('nba', 'player_prop'))).toMatchObject({ value: 'fair_price' });
  });
  it('a condition on a market with three outcomes ("if three are given") names the three-way market: its draw rule is not the money line\'s', () => {
    const text = 'Where two outcomes are offered, a drawn game returns all stakes. When 3 possible outcomes are offered, the draw is a result of its own.';
    expect(readRule(text, 'tie', m('nfl', 'moneyline'))).toMatchObject({ value: 'void' });
    expect(readRule('If three outcomes are listed, the tie is a separate outcome.', 'tie', m('nfl', 'moneyline'))).toEqual({ value: 'unknown', why: 'silent' });
  });
  it('"the sum of points" (goals, runs) names the total market, as "totals" does', () => {
    expect(readRule('If the handicap result, or the sum of goals, lands exactly on the line, stakes are refunded.', 'push', m('nhl', 'total'))).toMatchObject({ value: 'void' });
    expect(readRule('Bets on the sum of runs are graded on nine innings.', 'overtime', m('mlb', 'total'))).toMatchObject({ value: 'excluded' });
    expect(readRule('Bets on the sum of runs are graded on nine innings.', 'overtime', m('mlb', 'moneyline'))).toEqual({ value: 'unknown', why: 'silent' });
  });
});

describe('the nineteenth blind batch\'s silent rows read known: the kinds behind them (sentences written for these tests)', () => {
  it('"a team\'s goals" (runs) names the team total, as "team points" does: a push on it is no spread\'s push', () => {
    const text = 'If a team\'s goals equal the offered line, the bet is refunded.';
    expect(readRule(text, 'push', m('nhl', 'team_total'))).toMatchObject({ value: 'void' });
    expect(readRule(text, 'push', m('nhl', 'spread'))).toEqual({ value: 'unknown', why: 'silent' });
    expect(readRule('When the named team\'s runs land exactly on the number, stakes are returned.', 'push', m('mlb', 'spread'))).toEqual({ value: 'unknown', why: 'silent' });
  });
  it('a bet builder\'s terms ("the whole bet is cancelled") speak of its picks, not of a market the text names a single bet', () => {
    const terms = 'Bet Builder. 1.4 If one pick in a Bet Builder is voided, the whole Bet Builder is voided: for example, if the player you picked does not take part in the game, the whole bet is voided.';
    expect(readRule(`${terms} Market: Connor McDavid over 0.5 points, single bet.`, 'non_participation', m('nhl', 'player_prop'))).toEqual({ value: 'unknown', why: 'silent' });
    expect(readRule(`${terms} Market: Connor McDavid over 0.5 points.`, 'non_participation', m('nhl', 'player_prop'))).toMatchObject({ value: 'void' });
  });
});

describe('stated values of the nineteenth blind batch read unknown: the kinds behind them (sentences written for these tests)', () => {
  it('"supplementary time" and "supplementary periods" (an Italian book\'s "tempi supplementari") are overtime', () => {
    expect(readRule('The head to head is settled on the final result including the supplementary time.', 'overtime', m('nfl', 'moneyline'))).toMatchObject({ value: 'included' });
    expect(readRule('Totals are graded with every supplementary period included.', 'overtime', m('nba', 'total'))).toMatchObject({ value: 'included' });
    expect(readRule('Handicap bets are settled without supplementary periods.', 'overtime', m('nba', 'spread'))).toMatchObject({ value: 'excluded' });
    expect(readRule('These rules are supplementary to our terms and conditions.', 'overtime', m('nba', 'spread'))).toEqual({ value: 'unknown', why: 'silent' });
  });
  it('"testa a testa" (an Italian book\'s head to head) is the money line', () => {
    const text = "Basketball: 'Testa a testa' and 'Handicap' are settled on the final result including overtime; totals are settled on regulation time.";
    expect(readRule(text, 'overtime', m('nba', 'moneyline'))).toMatchObject({ value: 'included' });
    expect(readRule('The testa a testa is settled on regulation time only.', 'overtime', m('nba', 'moneyline'))).toMatchObject({ value: 'excluded' });
    expect(readRule('The testa a testa is settled on regulation time only.', 'overtime', m('nba', 'total'))).toEqual({ value: 'unknown', why: 'silent' });
  });
  it('"the winner of the match" (of the game) is the money line, as "match winner" is: a rule on it is no total\'s', () => {
    const text = 'Hockey: every bet is graded on regulation time. The only exception is the winner of the game, graded including overtime.';
    expect(readRule(text, 'overtime', m('nhl', 'total'))).toMatchObject({ value: 'excluded' });
    expect(readRule(text, 'overtime', m('nhl', 'moneyline'))).toMatchObject({ value: 'included' });
  });
  it('a "next player to score" market is a scorer market outside ours, as "touchdown scorer" is: its "(including overtime)" label decides no game line', () => {
    const text = "Markets do not consider overtime unless expressly stated otherwise. If no touchdown follows, the 'Next player to score (including overtime)' market is voided.";
    expect(readRule(text, 'overtime', m('nfl', 'total'))).toMatchObject({ value: 'excluded' });
    expect(readRule(text, 'overtime', m('nfl', 'spread'))).toMatchObject({ value: 'excluded' });
  });
  it('a half said to "cover the 3rd and 4th quarters" names its content, not the fourth-quarter market', () => {
    const text = 'A spread on the 4th quarter covers only its 12 minutes, and overtime is not included; a spread on the 2nd half covers the third and fourth quarters and includes overtime.';
    expect(readRule(text, 'overtime', { league: 'nba', marketType: 'spread', segment: 'quarter:4' })).toMatchObject({ value: 'excluded' });
    expect(readRule(text, 'overtime', { league: 'nba', marketType: 'spread', segment: 'half:2' })).toMatchObject({ value: 'included' });
  });
  it('"coefficient 1" (a Slavic or Baltic book\'s word for the odds) is odds 1, the stake back; "coefficient 1.85" is not', () => {
    expect(readRule('Total goals: if the number of goals equals the offered line, coefficient 1 applies.', 'push', m('nhl', 'total'))).toMatchObject({ value: 'void' });
    expect(readRule('If the total lands on the line, the bet is calculated with a coefficient of 1.00.', 'push', m('nba', 'total'))).toMatchObject({ value: 'void' });
    expect(readRule('If the total lands on the line, the bet is calculated with coefficient 1.85.', 'push', m('nba', 'total'))).toEqual({ value: 'unknown', why: 'silent' });
  });
  it('"the total points of the game or of the quarter" names the full game and the quarters, as "game and 2nd half" names both', () => {
    const text = 'If the total points of the game or of the quarter equal the offered line, the bet is refunded.';
    expect(readRule(text, 'push', m('nba', 'total'))).toMatchObject({ value: 'void' });
    expect(readRule(text, 'push', { league: 'nba', marketType: 'total', segment: 'quarter:4' })).toMatchObject({ value: 'void' });
    expect(readRule('If the points of the game or the half equal the line, stakes are returned.', 'push', m('nba', 'total'))).toMatchObject({ value: 'void' });
  });
  it('a result "after the handicap" that is (can be) level is a push, as "the score after the handicap can be level" is', () => {
    expect(readRule('With a whole-number handicap the result after the handicap can be level, and in that case the stake is refunded.', 'push', m('nfl', 'spread'))).toMatchObject({ value: 'void' });
    expect(readRule('If the outcome after the handicap is a tie, bets are returned.', 'push', m('nba', 'spread'))).toMatchObject({ value: 'void' });
  });
  it('a game "still level when overtime ends" is a tie after overtime, as one "level after overtime" is', () => {
    expect(readRule('Head to head includes overtime; if the game is still level when the overtime ends, stakes are refunded.', 'tie', m('nfl', 'moneyline'))).toMatchObject({ value: 'void' });
    expect(readRule('Money line bets include extra time. Should the teams be tied when extra time is over, the bet is void.', 'tie', m('nfl', 'moneyline'))).toMatchObject({ value: 'void' });
  });
});

describe('stated values of the newest former-evaluation parts read unknown: the kinds behind them (sentences written for these tests)', () => {
  it('"eight and a half" (a number and a half: innings, days) is a count, not the half market', () => {
    const text = 'Baseball: all bets are settled on the result after nine innings (eight and a half if the home side leads); extra innings do not count.';
    expect(readRule(text, 'overtime', m('mlb', 'total'))).toMatchObject({ value: 'excluded' });
    expect(readRule('Run lines need 8 and a half innings; extra innings are not counted.', 'overtime', m('mlb', 'spread'))).toMatchObject({ value: 'excluded' });
    expect(readRule('First half bets exclude overtime.', 'overtime', { league: 'nba', marketType: 'total', segment: 'half:1' })).toMatchObject({ value: 'excluded' });
    expect(readRule('A half and a half of play is needed; second half bets include overtime.', 'overtime', { league: 'nba', marketType: 'total', segment: 'half:2' })).toMatchObject({ value: 'included' });
  });
  it('"winner (two outcomes)" is the two-way money line: a rule said for it is not the totals\' rule', () => {
    const text = "Hockey: totals are settled on regulation time; the game 'winner' (two outcomes) is settled including overtime.";
    expect(readRule(text, 'overtime', m('nhl', 'total'))).toMatchObject({ value: 'excluded' });
    expect(readRule(text, 'overtime', m('nhl', 'moneyline'))).toMatchObject({ value: 'included' });
  });
  it('a regulation word before the length ("the regular 60 minutes") restates regulation: it is no 60-minute market', () => {
    const text = "Hockey: every game is graded on the regular 60 minutes; overtime and shootouts do not count, except in the game 'winner' (two outcomes), graded on the final score with overtime included.";
    expect(readRule(text, 'overtime', m('nhl', 'total'))).toMatchObject({ value: 'excluded' });
    expect(readRule(text, 'overtime', m('nhl', 'team_total'))).toMatchObject({ value: 'excluded' });
    expect(readRule(text, 'overtime', m('nhl', 'moneyline'))).toMatchObject({ value: 'included' });
    expect(readRule('The 60 minute line is settled on regulation.', 'overtime', m('nhl', 'moneyline'))).toEqual({ value: 'unknown', why: 'silent' });
  });
  it('a bet said to be decided by who wins in overtime counts overtime ("decided in extra innings", "the overtime result decides it", "if your team wins in overtime, the bet wins")', () => {
    expect(readRule('If the game goes to extra innings, the money line bet stands and is decided in the extra innings.', 'overtime', m('mlb', 'moneyline'))).toMatchObject({ value: 'included' });
    expect(readRule('A game contract follows the final score: if the game goes to overtime, the overtime result decides it.', 'overtime', m('nfl', 'moneyline'))).toMatchObject({ value: 'included' });
    expect(readRule('Head to head: if the team you picked wins in overtime, the bet wins.', 'overtime', m('nba', 'moneyline'))).toMatchObject({ value: 'included' });
    expect(readRule('Head to head: if the game is level, the bet stands and its outcome depends on the team that wins after overtime.', 'overtime', m('nba', 'moneyline'))).toMatchObject({ value: 'included' });
    // Said in a condition only, or for the three-way market, it decides nothing of ours.
    expect(readRule('If the game is decided in overtime, the 3-way bet on either team loses.', 'overtime', m('nhl', 'moneyline'))).toEqual({ value: 'unknown', why: 'silent' });
    expect(readRule('If the game goes to overtime, the market resolves to No, whoever wins in overtime.', 'overtime', m('nhl', 'moneyline'))).toEqual({ value: 'unknown', why: 'silent' });
    // Games "decided in overtime" describe how games end, not what a bet is settled on.
    expect(readRule('Since many hockey games are decided in overtime, you can also bet on the full match.', 'overtime', m('nhl', 'total'))).toEqual({ value: 'unknown', why: 'silent' });
  });
  it('a value said through a team winning ("if the team backed wins in overtime, the bet wins") is the money line\'s, not a total\'s beside it', () => {
    const text = 'Full match bets: if the team backed wins in overtime, the bet wins.';
    expect(readRule(text, 'overtime', m('nhl', 'moneyline'))).toMatchObject({ value: 'included' });
    expect(readRule(text, 'overtime', m('nhl', 'total'))).toEqual({ value: 'unknown', why: 'silent' });
    expect(readRule('Game bets: the outcome depends on the team that wins after overtime.', 'overtime', m('nba', 'spread'))).toEqual({ value: 'unknown', why: 'silent' });
  });
  it('a team that wins "in overtime, in a shootout or in regulation" ("whether in regular time or in the added time") wins the money line: overtime counts', () => {
    const text = 'Money line: your side only has to win, in overtime, in a shootout or in regulation.';
    expect(readRule(text, 'overtime', m('nhl', 'moneyline'))).toMatchObject({ value: 'included' });
    const full = 'You can also bet on the full match: the bet wins if your team wins, whether it does so in regular time or in the added time.';
    expect(readRule(full, 'overtime', m('nhl', 'moneyline'))).toMatchObject({ value: 'included' });
    expect(readRule(full, 'overtime', m('nhl', 'total'))).toEqual({ value: 'unknown', why: 'silent' });
    // Points scored "whether in regular time or in overtime" name no win.
    expect(readRule('Points scored in other quarters, whether in regular time or in overtime, are excluded.', 'overtime', { league: 'nba', marketType: 'total', segment: 'quarter:4' })).toMatchObject({ value: 'excluded' });
  });
  it('"the match result (1 or 2)" in a list of markets is the money line: its two outcomes label it, as the list goes on after them', () => {
    const text = 'Basketball: the match result (1 or 2), the handicap and the total are graded on the final score with overtime included.';
    expect(readRule(text, 'overtime', m('nba', 'moneyline'))).toMatchObject({ value: 'included' });
    expect(readRule(text, 'overtime', m('nba', 'total'))).toMatchObject({ value: 'included' });
    // "(1, X or 2)" is the three-way result, no money line.
    expect(readRule('Hockey: the match result (1, X or 2), the handicap and the total are graded on regulation time.', 'overtime', m('nhl', 'moneyline'))).toEqual({ value: 'unknown', why: 'silent' });
  });
  it('"Basketball, like baseball, ...": a sport after "like" that follows another sport is compared with, not the clause\'s sport ("sports like hockey" still is)', () => {
    const text = 'Basketball, like baseball, has no draw: the bet is settled on the result with overtime included.';
    expect(readRule(text, 'overtime', m('nba', 'moneyline'))).toMatchObject({ value: 'included' });
    expect(readRule(text, 'overtime', m('mlb', 'moneyline'))).toEqual({ value: 'unknown', why: 'silent' });
    expect(readRule('In sports like hockey, money line bets include overtime.', 'overtime', m('nhl', 'moneyline'))).toMatchObject({ value: 'included' });
  });
  it('overtime scoring that "is added in" (a Korean guide\'s wording) counts, as "added to it" does; "added in the fourth quarter" is no value', () => {
    expect(readRule('Hockey: the money line is graded on the final score, and the goals scored in overtime are added in.', 'overtime', m('nhl', 'moneyline'))).toMatchObject({ value: 'included' });
    expect(readRule('Totals: the points scored in overtime are not added in.', 'overtime', m('nba', 'total'))).toMatchObject({ value: 'excluded' });
    expect(readRule('If overtime is needed, the points are added in the fourth quarter column of the box score.', 'overtime', m('nba', 'total'))).toEqual({ value: 'unknown', why: 'silent' });
  });
  it('"national and international championships" are every competition, not the international ones (a league outside ours) alone', () => {
    const text = 'In national and international ice hockey championships, bets are settled on regulation time unless stated otherwise.';
    expect(readRule(text, 'overtime', m('nhl', 'total'))).toMatchObject({ value: 'excluded' });
    expect(readRule('In international ice hockey championships, bets are settled on regulation time.', 'overtime', m('nhl', 'total'))).toEqual({ value: 'unknown', why: 'silent' });
  });
  it('results "recorded on the usual playing time" are regulation only, as bets "made on regular time" are', () => {
    expect(readRule('Hockey: bet results are recorded on the usual playing time of the match.', 'overtime', m('nhl', 'total'))).toMatchObject({ value: 'excluded' });
    expect(readRule('Hockey: bet results are recorded on the usual playing time and overtime.', 'overtime', m('nhl', 'total'))).not.toMatchObject({ value: 'excluded' });
    expect(readRule('Totals are settled after the usual playing time; overtime does not count.', 'overtime', m('nba', 'total'))).toMatchObject({ value: 'excluded' });
  });
  it('a clause drawing a consequence ("that is why you so often see half points") hedges its own claim, not the statement before it', () => {
    const text = 'If the favourite wins by exactly the spread, the bet is a push and your stake comes back; that is why books so often post half points.';
    expect(readRule(text, 'push', m('nba', 'spread'))).toMatchObject({ value: 'void' });
    expect(readRule('If a total lands on the number, it is refunded. That is why lines usually end in a half point.', 'push', m('nfl', 'total'))).toMatchObject({ value: 'void' });
    // A hedge that refers back still withdraws it.
    expect(readRule('If a total lands on the number, it is refunded; this is usually the case.', 'push', m('nfl', 'total'))).toMatchObject({ value: 'unknown' });
  });
  it('"half a point", "half of the points" are a share of a point, not the half market', () => {
    expect(clauses('Each correct pick scores one point and a pick on a tied game receives half a point, overtime included.')[0].scope.segments).toBeUndefined();
    expect(clauses('Half of the points scored in overtime count.')[0].scope.segments).toBeUndefined();
    expect(clauses('The first half of the game is settled on its own.')[0].scope.segments?.has('half:1')).toBe(true);
    expect(readRule('Second half bets exclude overtime.', 'overtime', { league: 'nba', marketType: 'total', segment: 'half:2' })).toMatchObject({ value: 'excluded' });
  });
  it('a pool\'s tied game that "receives half a point" (earns half a point) pays half, as one that "earns no point" loses', () => {
    expect(readRule('Pick the winner of each game; if a game ends in a tie, every pick on it receives half a point.', 'tie', m('nfl', 'moneyline'))).toMatchObject({ value: 'half_payout' });
    expect(readRule('If a game is tied, a pick on it earns half a point.', 'tie', m('nfl', 'moneyline'))).toMatchObject({ value: 'half_payout' });
  });
  it('"first five innings" ("F5", "First Five") is baseball\'s first half, the half:1 market the corpus places F5 lines on, not a period outside ours', () => {
    const f5 = { league: 'mlb' as const, marketType: 'moneyline' as const, segment: 'half:1' as const };
    expect(readRule('On the two-way F5 money line, if the score is level after five innings the stake is refunded.', 'tie', f5)).toMatchObject({ value: 'void' });
    expect(readRule('First five innings bets: if the game is tied after five innings, wagers are refunded.', 'tie', f5)).toMatchObject({ value: 'void' });
    // A full-game line is not an F5 line.
    expect(readRule('On the two-way F5 money line, if the score is level after five innings the stake is refunded.', 'tie', m('mlb', 'moneyline'))).toEqual({ value: 'unknown', why: 'silent' });
  });
  it('a game "postponed by more than 48 hours or cancelled": the cancellation coordinated after a postponement window is the cancellation case', () => {
    const prop = m('nba', 'player_prop');
    expect(readRule('If the game is postponed by more than two days or cancelled, player bets are refunded.', 'cancellation', prop)).toMatchObject({ value: 'void' });
    expect(readRule('If the match is postponed for over 24 hours or called off, the bet is void.', 'cancellation', prop)).toMatchObject({ value: 'void' });
    // A postponement window alone still names no cancellation.
    expect(readRule('If the game is postponed by more than two days, player bets are refunded.', 'cancellation', prop)).toEqual({ value: 'unknown', why: 'silent' });
  });
  it('the "all" of "at all" ("if he did not play at all, bets on him are void") is no "all bets"', () => {
    expect(clauses('If he did not play at all, bets on his points are returned.')[0].own.every).toBeFalsy();
    expect(clauses('All bets on his points are returned.')[0].own.every).toBe(true);
    expect(readRule('Team totals: if the player did not play at all, bets on him are returned.', 'non_participation', m('nba', 'player_prop'))).toEqual({ value: 'unknown', why: 'silent' });
  });
  it('"his individual totals" (her, the player\'s) are a player\'s lines, not the game\'s total or a team\'s', () => {
    const text = 'Player statistics: if the player did not take the court, bets on his individual totals are returned at odds 1.00.';
    expect(readRule(text, 'non_participation', m('nba', 'player_prop'))).toMatchObject({ value: 'void' });
    expect(readRule('Bets on his individual total include overtime.', 'overtime', m('nba', 'total'))).toEqual({ value: 'unknown', why: 'silent' });
  });
  it('whole-number totals that "push if" the score lands on them (the verb, stated) settle as a push, as ones that "are a push" do; "can push" and "end in a push if" still state nothing', () => {
    expect(readRule('Half-point totals prevent pushes, while whole-number totals (such as 44) push if the combined score lands exactly there.', 'push', m('nfl', 'total'))).toMatchObject({ value: 'void' });
    expect(readRule('Whole-number spreads push when the margin equals the line.', 'push', m('nfl', 'spread'))).toMatchObject({ value: 'void' });
    expect(readRule('Whole-number totals can push if the combined score lands exactly there.', 'push', m('nfl', 'total'))).toEqual({ value: 'unknown', why: 'silent' });
    expect(readRule('Whole-number totals can end in a push if the combined score lands exactly there.', 'push', m('nfl', 'total'))).toEqual({ value: 'unknown', why: 'silent' });
  });
  it('a result with "three choices" (outcomes, options) of which one is the draw has the tie as its own outcome', () => {
    const half = { league: 'nba' as const, marketType: 'moneyline' as const, segment: 'half:1' as const };
    expect(readRule('The first-half result has three choices, 1, 0 and 2, the 0 being the draw.', 'tie', half)).toMatchObject({ value: 'separate_outcome' });
    expect(readRule('The half-time bet offers three outcomes: home, draw, away.', 'tie', half)).toMatchObject({ value: 'separate_outcome' });
  });
});

describe('the twentieth blind batch\'s wrong value and silent rows read known: the kinds behind them (sentences written for these tests)', () => {
  it('lacrosse and handball are sports outside the spec: a heading naming one opens a section for none of our markets', () => {
    const text = 'LACROSSE. General rules. Money Line: pick the winner; overtime counts for settlement. Totals: pick over or under the goals line; overtime counts. Market: Rangers v Devils total goals 6.';
    expect(readRule(text, 'overtime', m('nhl', 'total'))).toEqual({ value: 'unknown', why: 'silent' });
    expect(readRule(text, 'overtime', m('nhl', 'moneyline'))).toEqual({ value: 'unknown', why: 'silent' });
    expect(readRule('Handball. Match bets include extra time.', 'overtime', m('nba', 'moneyline'))).toEqual({ value: 'unknown', why: 'silent' });
    expect(readRule('Hockey. Match bets include extra time.', 'overtime', m('nhl', 'moneyline'))).toMatchObject({ value: 'included' });
  });
});

describe('the twentieth blind batch\'s silent rows read known: a page of another sport\'s rules (sentences written for these tests)', () => {
  it('a text heading the rules of a sport outside the spec ("Handball rules:") and naming none of ours is that sport\'s page: its general sentences settle none of our markets', () => {
    const text = 'Help centre. All bets are settled on the final score of the legal playing time; extra time is not counted. Handball rules: 1. Duration: two halves of 30 minutes. 2. Players: seven on court. Market: Predators v Blues total goals 6.';
    expect(readRule(text, 'overtime', m('nhl', 'total'))).toEqual({ value: 'unknown', why: 'silent' });
    // Naming a league of ours keeps the general sentence ours; without the other sport's heading it is ours too.
    expect(readRule(text.replace('Help centre.', 'NHL help centre.'), 'overtime', m('nhl', 'total'))).toMatchObject({ value: 'excluded' });
    expect(readRule(text.replace('Handball rules:', 'Notes:'), 'overtime', m('nhl', 'total'))).toMatchObject({ value: 'excluded' });
  });
});

describe('the twentieth blind batch\'s silent rows read known: a hedge over providers (sentences written for these tests)', () => {
  it('"many providers count the overtime" speaks of other venues, as "many books" does: it states no rule of this one', () => {
    expect(readRule('With over/under bets many providers count the overtime, but not all, so check the market name.', 'overtime', m('nhl', 'total'))).toMatchObject({ value: 'unknown', why: 'hedged' });
    expect(readRule('Most betting providers settle totals including overtime.', 'overtime', m('nba', 'total'))).toMatchObject({ value: 'unknown', why: 'hedged' });
    expect(readRule('Our totals count the overtime.', 'overtime', m('nhl', 'total'))).toMatchObject({ value: 'included' });
  });
});

describe('the twentieth blind batch\'s silent rows read known: one team\'s line (sentences written for these tests)', () => {
  it('"the goals scored by one team" (points, runs) name the team total, as "goals by one team" does: its push rule is no game total\'s', () => {
    const text = 'If the number of goals scored by one team equals the line offered for that team, the bet is settled at odds 1.';
    expect(readRule(text, 'push', m('nhl', 'team_total'))).toMatchObject({ value: 'void' });
    expect(readRule(text, 'push', m('nhl', 'total'))).toEqual({ value: 'unknown', why: 'silent' });
    expect(readRule('When the points scored by one team land on its line, stakes are returned.', 'push', m('nba', 'total'))).toEqual({ value: 'unknown', why: 'silent' });
  });
});

describe('the twentieth blind batch\'s wrong value: a definition of a length of play (sentences written for these tests)', () => {
  it('"Overtime in hockey is extra time added to ..." says what overtime is: it states no rule, however it is worded', () => {
    const text = 'How long is overtime? Overtime in hockey is extra time added to the main time of the match when the score is level after three periods. It lasts five minutes.';
    expect(readRule(text, 'overtime', m('nhl', 'team_total'))).toEqual({ value: 'unknown', why: 'silent' });
    expect(readRule('Overtime is an additional period added to the game if the score is tied.', 'overtime', m('nba', 'total'))).toEqual({ value: 'unknown', why: 'silent' });
    // A rule after the definition is read.
    expect(readRule('Overtime is an additional period added to the game if the score is tied; it counts for totals.', 'overtime', m('nba', 'total'))).toMatchObject({ value: 'included', evidence: 'it counts for totals' });
    // A rule whose subject is overtime is still a rule.
    expect(readRule('Overtime is included in the total.', 'overtime', m('nhl', 'total'))).toMatchObject({ value: 'included' });
    expect(readRule('Overtime is not counted for totals.', 'overtime', m('nhl', 'total'))).toMatchObject({ value: 'excluded' });
  });
});

describe('the twentieth blind batch\'s silent rows read known: a section of definitions (sentences written for these tests)', () => {
  it('the sentences under a heading of definitions say what terms mean; the section ends at a heading of rules, a numbered item or a league', () => {
    const defs = 'Office pool rules. Key definitions: spread - the margin a team is expected to win by. Covering - when a team beats the margin set by football experts: it wins by more. If the team wins by exactly the spread, this is a push.';
    expect(readRule(`${defs} General rules: one point per correct pick.`, 'push', m('nfl', 'spread'))).toEqual({ value: 'unknown', why: 'silent' });
    expect(readRule(`${defs} Pool rules: a push is refunded.`, 'push', m('nfl', 'spread'))).toMatchObject({ value: 'void', evidence: 'a push is refunded' });
    expect(readRule('2. Definitions: a bet is an agreement on an outcome. 3. Totals: if the total lands on the line, stakes are refunded.', 'push', m('nba', 'total'))).toMatchObject({ value: 'void' });
    // Without the heading the sentence is read as before.
    expect(readRule('Office pool rules. If the team wins by exactly the spread, this is a push and stakes are refunded.', 'push', m('nfl', 'spread'))).toMatchObject({ value: 'void' });
  });
});

describe('stated values of the twentieth blind batch read unknown: the kinds behind them (sentences written for these tests)', () => {
  it('periods named in an inset after "all bets" ("including bets on the second half") are named beside the full game, not instead of it', () => {
    const text = 'All bets on a match, including bets on the first half and on the third quarter, are graded with any overtime included.';
    expect(readRule(text, 'overtime', m('nfl', 'total'))).toMatchObject({ value: 'included' });
    expect(readRule(text, 'overtime', { league: 'nfl', marketType: 'total', segment: 'quarter:3' })).toMatchObject({ value: 'included' });
    expect(readRule('All wagers count overtime unless stated, including wagers on the second half.', 'overtime', m('nba', 'spread'))).toMatchObject({ value: 'included' });
    // Periods named as the clause's own subject still narrow it.
    expect(readRule('Bets on the second half include overtime.', 'overtime', m('nba', 'spread'))).toEqual({ value: 'unknown', why: 'silent' });
  });
  it('a hedged clause giving how long an overtime period lasts describes the sport and claims no scope, as one saying where it is played does', () => {
    const text = 'An overtime period typically lasts five minutes, counted on the game clock. For bettors: the money line and the total are settled including every overtime.';
    expect(readRule(text, 'overtime', m('nba', 'moneyline'))).toMatchObject({ value: 'included' });
    expect(readRule('Overtime usually lasts five minutes, counted on the clock. Totals are settled including overtime.', 'overtime', m('nba', 'total'))).toMatchObject({ value: 'included' });
    // A hedged statement of how a market settles still withdraws.
    expect(readRule('Totals usually include overtime.', 'overtime', m('nba', 'total'))).toMatchObject({ value: 'unknown', why: 'hedged' });
  });
  it('"shootout goals do not count" says what the shootout adds, nothing of overtime: beside "include overtime" it is no denial', () => {
    const text = 'The winner, the total and player points include overtime and the shootout, the shootout winner getting one goal (shootout goals do not count for players).';
    expect(readRule(text, 'overtime', m('nhl', 'total'))).toMatchObject({ value: 'included' });
    expect(readRule(text, 'overtime', m('nhl', 'player_prop'))).toMatchObject({ value: 'included' });
    expect(readRule('Player points include overtime; shootout goals are not counted.', 'overtime', m('nhl', 'player_prop'))).toMatchObject({ value: 'included' });
  });
  it('"every overtime" (each overtime, all overtimes) is overtime as "any overtime" is: "decided on the final score after every overtime" includes it', () => {
    expect(readRule('The handicap is decided on the final score after every overtime.', 'overtime', m('nba', 'spread'))).toMatchObject({ value: 'included' });
    expect(readRule('Money line bets are settled on the result after all overtimes.', 'overtime', m('nfl', 'moneyline'))).toMatchObject({ value: 'included' });
  });
  it('a sports lottery\'s "big/small points" is the total, "handicap win/lose" the spread and "win/lose" the money line', () => {
    const text = 'In the lottery\'s basketball games, the handicap win/lose and the big/small points include overtime; fourth-quarter plays do not.';
    expect(readRule(text, 'overtime', m('nba', 'total'))).toMatchObject({ value: 'included' });
    expect(readRule(text, 'overtime', m('nba', 'spread'))).toMatchObject({ value: 'included' });
    expect(readRule('The win/lose play is settled including overtime.', 'overtime', m('nba', 'total'))).toEqual({ value: 'unknown', why: 'silent' });
    expect(readRule('The big/small points are settled on the four quarters only.', 'overtime', m('nba', 'moneyline'))).toEqual({ value: 'unknown', why: 'silent' });
  });
  it('"the game type \'Winner\'" (the bet type, the market) names the money line: its rule is no total\'s', () => {
    const text = "Ice hockey: the 1X2, handicap and total goals are settled on regular time (60 minutes); the game type 'Winner' includes overtime and the shootout.";
    expect(readRule(text, 'overtime', m('nhl', 'total'))).toMatchObject({ value: 'excluded' });
    expect(readRule(text, 'overtime', m('nhl', 'moneyline'))).toMatchObject({ value: 'included' });
    expect(readRule("The bet type Winner is settled including overtime.", 'overtime', m('nhl', 'total'))).toEqual({ value: 'unknown', why: 'silent' });
  });
  it('"count only the 60 minutes" (only the regular time) is regulation only, as "only regular time" is: "the 60 minutes" after "only" is a length of play, not the 60-minute market', () => {
    expect(readRule('The total goals count only the 60 minutes.', 'overtime', m('nhl', 'total'))).toMatchObject({ value: 'excluded' });
    expect(readRule('Spreads consider only the regular time.', 'overtime', m('nhl', 'spread'))).toMatchObject({ value: 'excluded' });
    expect(readRule('Totals count only the regular time and overtime.', 'overtime', m('nhl', 'total'))).not.toMatchObject({ value: 'excluded' });
  });
  it('"the full-game winner" names the full game as well as the money line: after a second-half clause it does not take that half', () => {
    const text = 'A second-half handicap is settled on those points including overtime; the full-game winner also includes overtime.';
    expect(readRule(text, 'overtime', m('wnba', 'moneyline'))).toMatchObject({ value: 'included', evidence: 'the full-game winner also includes overtime' });
    expect(readRule('Second-half totals exclude overtime; the full-game winner counts it.', 'overtime', m('nba', 'moneyline'))).toMatchObject({ value: 'included' });
  });
  it('"the main time" (a translation of a book\'s word for regulation) is regulation time: "calculated on the main time of three periods" excludes overtime', () => {
    expect(readRule('A team total is calculated on the main time of three periods.', 'overtime', m('nhl', 'team_total'))).toMatchObject({ value: 'excluded' });
    expect(readRule('Totals are settled on the main time.', 'overtime', m('nhl', 'total'))).toMatchObject({ value: 'excluded' });
    expect(readRule('Totals are settled on the main time and overtime.', 'overtime', m('nhl', 'total'))).toMatchObject({ value: 'included' });
  });
  it('"a team\'s individual total" is the team total (a player\'s "individual totals" stay unnamed)', () => {
    const text = "For bettors: a team's individual total is calculated on the regular time unless the line is marked 'with OT'.";
    expect(readRule(text, 'overtime', m('nhl', 'team_total'))).toMatchObject({ value: 'excluded' });
    expect(readRule(text, 'overtime', m('nhl', 'total'))).toEqual({ value: 'unknown', why: 'silent' });
  });
  it('"the 60-minute result" and "the result of 60 minutes" are the result at the regular length, not a 60-minute market', () => {
    expect(readRule('Handicap bets are settled on the 60-minute result.', 'overtime', m('nhl', 'spread'))).toMatchObject({ value: 'excluded' });
    expect(readRule('All bets are settled on the result of 60 minutes, unless otherwise stated.', 'overtime', m('nhl', 'total'))).toMatchObject({ value: 'excluded' });
    // A market on the 60 minutes is still one outside ours.
    expect(readRule('The 60-minute line includes no overtime.', 'overtime', m('nhl', 'moneyline'))).toEqual({ value: 'unknown', why: 'silent' });
  });
  it('"does not get on the court" (onto the ice) is a player not taking part, as "does not come onto the court" is', () => {
    expect(readRule('Player bets: if the player does not get on the court at all, the bet is settled at odds 1.', 'non_participation', m('nba', 'player_prop'))).toMatchObject({ value: 'void' });
    expect(readRule('If the skater never gets onto the ice, stakes are refunded.', 'non_participation', m('nhl', 'player_prop'))).toMatchObject({ value: 'void' });
    expect(readRule('If the team does not get on the court on time, the game is forfeited.', 'non_participation', m('nba', 'moneyline'))).toEqual({ value: 'unknown', why: 'silent' });
  });
  it('"the winner bet" (the winner market) names the money line, as "the game type Winner" does', () => {
    const text = 'Extra innings: if the game is tied after nine innings, extra innings are played, and these count for the winner bet.';
    expect(readRule(text, 'overtime', m('mlb', 'moneyline'))).toMatchObject({ value: 'included' });
    expect(readRule('The winner market is settled on nine innings only.', 'overtime', m('mlb', 'total'))).toEqual({ value: 'unknown', why: 'silent' });
  });
});

describe('the twenty-second blind batch\'s wrong values: combination bets and a trailing restriction to other markets (sentences written for these tests)', () => {
  it('a sentence about combination bets ("in combo games", "combination bets", "system bets") speaks of a bet outside ours and decides no single market', () => {
    expect(readRule('In combo games, the extra innings played after the normal length of the match are taken into account.', 'overtime', m('mlb', 'total'))).toEqual({ value: 'unknown', why: 'silent' });
    expect(readRule('Extra innings do not count. For combination bets, extra innings are included.', 'overtime', m('mlb', 'moneyline'))).toMatchObject({ value: 'excluded' });
    expect(readRule('Overtime is excluded; in system bets, overtime counts.', 'overtime', m('nhl', 'total'))).toMatchObject({ value: 'excluded' });
    // A single market's own rule is still read.
    expect(readRule('In single bets, the extra innings are taken into account.', 'overtime', m('mlb', 'total'))).toMatchObject({ value: 'included' });
  });
  it('"this applies to overtime and shootout markets only" restricts the statement before it to markets on overtime or the shootout, outside ours', () => {
    const rule = "If a match is decided by a penalty shootout, one goal is added to the winning team's score and to the match total; this applies to overtime and shootout markets only.";
    expect(readRule(rule, 'overtime', m('nhl', 'total'))).toEqual({ value: 'unknown', why: 'silent' });
    expect(readRule('All markets (except overtime and penalty-shootout markets) are settled on regular time only, unless stated otherwise in the market. ' + rule, 'overtime', m('nhl', 'total'))).toMatchObject({ value: 'excluded' });
    expect(readRule('Overtime markets include the shootout.', 'overtime', m('nhl', 'moneyline'))).toEqual({ value: 'unknown', why: 'silent' });
    // Words either side of a comma are no market's name: "after overtime, bets on the winner" is the money line.
    expect(readRule('If the game ends level after overtime, bets on the winner are void.', 'tie', m('nhl', 'moneyline'))).toMatchObject({ value: 'void' });
    // A restriction to one of our markets still gives the statement that market.
    expect(readRule("One goal is added to the winning team's score; this applies to money line bets only.", 'overtime', m('nhl', 'moneyline'))).toMatchObject({ value: 'included' });
  });
});

describe('stated values of the twenty-second blind batch read unknown: the kinds behind them (sentences written for these tests)', () => {
  it('overtime "within the scope of" settlement counts, and "not within the scope of" it does not', () => {
    expect(readRule('Unless otherwise stated, extra innings are not within the scope of bet settlement.', 'overtime', m('mlb', 'total'))).toMatchObject({ value: 'excluded' });
    expect(readRule('Overtime falls within the scope of settlement for all bets.', 'overtime', m('nhl', 'spread'))).toMatchObject({ value: 'included' });
    // The text of a combo-game sentence beside it leaves the single market's rule alone.
    const text = 'Unless otherwise stated, extra innings are not within the scope of bet settlement. In combo games, the extra innings played after the normal length of the match are taken into account.';
    expect(readRule(text, 'overtime', m('mlb', 'total'))).toMatchObject({ value: 'excluded' });
    expect(readRule(text, 'overtime', m('mlb', 'player_prop'))).toMatchObject({ value: 'excluded' });
  });
});
describe('stated values of the twenty-second blind batch read unknown: a half defined as the sum of quarters (sentences written for these tests)', () => {
  it('"the sum of quarters 3 and 4" defines the half by its content and names no quarter: its "extra time included" is the half\'s, not the fourth quarter\'s', () => {
    const text = 'The second-half result is the sum of quarters 3 and 4, extra time included. The fourth-quarter result does not include any extra time.';
    expect(readRule(text, 'overtime', m('nba', 'total', 'quarter:4'))).toMatchObject({ value: 'excluded' });
    expect(readRule(text, 'overtime', m('nba', 'spread', 'half:2'))).toMatchObject({ value: 'included' });
    expect(readRule('The first half is the sum of the 1st and 2nd quarters; overtime is not included in the 2nd quarter.', 'overtime', m('nba', 'total', 'quarter:2'))).toMatchObject({ value: 'excluded' });
  });
});
describe('stated values of the twenty-second blind batch read unknown: overtime left out or a shootout goal added, in other words (sentences written for these tests)', () => {
  it('"settled without the overtime" (without any overtime) excludes it, as "without overtime" does', () => {
    expect(readRule('Fourth-quarter bets are settled without the overtime.', 'overtime', m('nfl', 'total', 'quarter:4'))).toMatchObject({ value: 'excluded' });
    expect(readRule('Totals are graded without any extra innings.', 'overtime', m('mlb', 'total'))).toMatchObject({ value: 'excluded' });
    // A case is no value: "if the game ends without the overtime being needed" states nothing.
    expect(readRule('If the game is decided without the overtime, totals are settled as usual.', 'overtime', m('nhl', 'total'))).toEqual({ value: 'unknown', why: 'silent' });
  });
  it('"adds one goal for the shootout winner" counts the shootout goal, as "one goal for the winner" does', () => {
    expect(readRule('The game total, on the other hand, adds one goal for the shootout winner.', 'overtime', m('nhl', 'total'))).toMatchObject({ value: 'included' });
    expect(readRule('Totals count one goal for the eventual shootout winner.', 'overtime', m('nhl', 'total'))).toMatchObject({ value: 'included' });
  });
});
describe('stated values of the twenty-second blind batch read unknown: combination bets coordinated after a single bet\'s rule (sentences written for these tests)', () => {
  it('", and in parlays the leg counts as 1" after a statement is a clause of its own about the combination bet: the single bet\'s refund stands', () => {
    const text = 'In two-way markets the push rules apply unless stated below: stakes on single bets are refunded, and in combinations or parlays the leg counts as 1.';
    expect(readRule(text, 'push', m('nba', 'spread'))).toMatchObject({ value: 'void' });
    expect(readRule('A total that lands on the line is refunded, and for combo bets the leg is settled at odds 1.', 'push', m('nba', 'total'))).toMatchObject({ value: 'void' });
    // The combination bet's own clause still decides no market of ours.
    expect(readRule('In parlays the leg counts as 1.', 'push', m('nba', 'spread'))).toEqual({ value: 'unknown', why: 'silent' });
  });
});
describe('stated values of the twenty-second blind batch read unknown: a result equal to the line (sentences written for these tests)', () => {
  it('a total "equal to the line" lands on it, as one that "equals the line" does', () => {
    expect(readRule('Totals: if the total is equal to the line, the stake is refunded.', 'push', m('wnba', 'total'))).toMatchObject({ value: 'void' });
    expect(readRule('If the margin is equal to the handicap, spread bets are void.', 'push', m('nfl', 'spread'))).toMatchObject({ value: 'void' });
    expect(readRule('A stake equal to the line limit is accepted.', 'push', m('nfl', 'spread'))).toEqual({ value: 'unknown', why: 'silent' });
  });
});
describe('stated values of the twenty-second blind batch read unknown: a player who takes no part, in other words (sentences written for these tests)', () => {
  it('a player who "takes no part" does not take part', () => {
    expect(readRule('Player markets: if the player takes no part in the match, all bets on him are void.', 'non_participation', m('nhl', 'player_prop'))).toMatchObject({ value: 'void' });
    expect(readRule('Player bets: bets on a player who takes no part in the game are settled as lost.', 'non_participation', m('mlb', 'player_prop'))).toMatchObject({ value: 'loses' });
    // Overtime that "plays no part" is no player left out.
    expect(readRule('Overtime plays no part in player bets.', 'non_participation', m('nba', 'player_prop'))).toEqual({ value: 'unknown', why: 'silent' });
  });
  it('a player who "never steps onto the floor" (the court, the ice) does not take part', () => {
    expect(readRule('A player who never steps onto the floor has his bet refunded.', 'non_participation', m('nba', 'player_prop'))).toMatchObject({ value: 'void' });
    expect(readRule('If the skater does not step on the ice, player bets are void.', 'non_participation', m('nhl', 'player_prop'))).toMatchObject({ value: 'void' });
  });
  it('"On the betting side:" (as for betting) names no market: the sentences under it keep their own scope', () => {
    const text = 'On the betting side: player props include the points scored in overtime. A player who never takes the floor has his bet refunded.';
    expect(readRule(text, 'non_participation', m('nba', 'player_prop'))).toMatchObject({ value: 'void' });
    expect(readRule('On the betting side: overtime counts.', 'overtime', m('nba', 'total'))).toMatchObject({ value: 'included' });
    // A side (the money line and spread) is still a market: "Side bets: overtime counts" names it.
    expect(readRule('Side: overtime counts.', 'overtime', m('nba', 'total'))).toEqual({ value: 'unknown', why: 'silent' });
  });
});
describe('stated values of the twenty-second blind batch read unknown: a player who must play "for the bet to be valid" (sentences written for these tests)', () => {
  it('"must play for the bet to be valid" voids the bet of a player who does not, as "for the bet to stand" does', () => {
    expect(readRule('Player bets: the player must play for the bet to be valid.', 'non_participation', m('mlb', 'player_prop'))).toMatchObject({ value: 'void' });
    expect(readRule('In player-based special games, the players must play in the match for the bet to be valid.', 'non_participation', m('mlb', 'player_prop'))).toMatchObject({ value: 'void' });
    expect(readRule('A bet is valid when it is confirmed.', 'non_participation', m('mlb', 'player_prop'))).toEqual({ value: 'unknown', why: 'silent' });
  });
});
describe('stated values of the twenty-second blind batch read unknown: strikeout bets (sentences written for these tests)', () => {
  it('"strikeout bets" (a pitcher\'s strikeouts) are a player\'s market, as "strikeouts" are: under a money line\'s heading they keep their own scope', () => {
    const text = 'In head-to-head betting the extra innings always count: the winner is whoever leads when the game ends. Strikeout bets on a pitcher are void if the named pitcher does not start the game.';
    expect(readRule(text, 'non_participation', m('mlb', 'player_prop'))).toMatchObject({ value: 'void' });
    expect(readRule('Strikeout bets include extra innings.', 'overtime', m('mlb', 'total'))).toEqual({ value: 'unknown', why: 'silent' });
  });
});
describe('stated values read unknown across every part: the kinds behind them (sentences written for these tests)', () => {
  it('"match odds" (an exchange\'s name for the two-way winner market) is the money line', () => {
    expect(readRule('Basketball: Match Odds and handicap markets include overtime.', 'overtime', m('wnba', 'moneyline'))).toMatchObject({ value: 'included' });
    expect(readRule('Ice hockey: the match odds market is settled on regular time only.', 'overtime', m('nhl', 'moneyline'))).toMatchObject({ value: 'excluded' });
    expect(readRule('Ice hockey: the match odds market is settled on regular time only.', 'overtime', m('nhl', 'total'))).toEqual({ value: 'unknown', why: 'silent' });
  });
  it('"home total" and "away total" (one team\'s total by its side) are the team total, not the game\'s total', () => {
    expect(readRule('Market 260: Home Total (incl. extra innings) - baseball - over/under.', 'overtime', m('mlb', 'team_total'))).toMatchObject({ value: 'included' });
    expect(readRule('Away totals are settled on regulation time only.', 'overtime', m('nhl', 'team_total'))).toMatchObject({ value: 'excluded' });
    expect(readRule('Away totals are settled on regulation time only.', 'overtime', m('nhl', 'total'))).toEqual({ value: 'unknown', why: 'silent' });
  });
  it('"also" inside a value\'s wording ("is also a push", "the stake also comes back") adds a case to what the words say, as without it', () => {
    const text = 'A First Five money line that is tied after five innings is a push and the stake is refunded; a First Five total landing exactly on the number is also a push.';
    expect(readRule(text, 'push', m('mlb', 'total', 'half:1'))).toMatchObject({ value: 'void', evidence: 'a First Five total landing exactly on the number is also a push' });
    expect(readRule('If a team total lands exactly on the line, the stake also comes back.', 'push', m('nhl', 'team_total'))).toMatchObject({ value: 'void' });
    // "also" opening a phrase is no part of it: "also" alone still names nothing.
    expect(readRule('Totals landing exactly on the number also count.', 'push', m('nhl', 'total'))).toEqual({ value: 'unknown', why: 'silent' });
  });
  it('"only goals during regular time" (only the points or runs scored in regulation) count regulation only, as "only the regular time" does', () => {
    expect(readRule('Ice hockey. 2. Total | Only goals during regular time are considered.', 'overtime', m('nhl', 'total'))).toMatchObject({ value: 'excluded' });
    expect(readRule('Spreads: only points scored in regulation count.', 'overtime', m('nfl', 'spread'))).toMatchObject({ value: 'excluded' });
    expect(readRule('Totals: only goals scored in regular time and overtime count.', 'overtime', m('nhl', 'total'))).not.toMatchObject({ value: 'excluded' });
    expect(readRule('Next goal (OT only!): only goals during overtime are considered.', 'overtime', m('nhl', 'total'))).toEqual({ value: 'unknown', why: 'silent' });
  });
  it('"a cancelled or postponed match" names the cancelled game among the cases it settles (a postponed game alone still names no cancellation)', () => {
    expect(readRule('Baseball. A bet is declared void on a cancelled or postponed match that has not started.', 'cancellation', m('mlb', 'player_prop'))).toMatchObject({ value: 'void' });
    expect(readRule('Bets on cancelled, suspended or postponed games are refunded.', 'cancellation', m('nba', 'player_prop'))).toMatchObject({ value: 'void' });
    expect(readRule('Bets on postponed games are refunded.', 'cancellation', m('nba', 'player_prop'))).toEqual({ value: 'unknown', why: 'silent' });
    expect(readRule('Bets on suspended or postponed games are refunded.', 'cancellation', m('nba', 'player_prop'))).toEqual({ value: 'unknown', why: 'silent' });
  });
  it('"bets on the performance of one or more players" (of a player, of the players listed) are player props, as "a player\'s performance" is', () => {
    const text = "'Head to Head' and 'Over/Under' bets on the performance of one or more players in a match are valid provided all the players listed take part in the match at some point.";
    expect(readRule(text, 'non_participation', m('mlb', 'player_prop'))).toMatchObject({ value: 'void' });
    expect(readRule('Bets on the performance of a player are void if the player does not take part.', 'non_participation', m('nfl', 'player_prop'))).toMatchObject({ value: 'void' });
    expect(readRule('Totals on the performance of a team are settled including overtime.', 'overtime', m('nfl', 'player_prop'))).toEqual({ value: 'unknown', why: 'silent' });
  });
  it('a length of play named after a level score in a condition ("if the game is level at the end of regulation time") says when overtime is played, not what bets settle on', () => {
    expect(readRule('Game Winner - 2 options: bets include extra time if the game is level at the end of regulation time.', 'overtime', m('nba', 'moneyline'))).toMatchObject({ value: 'included' });
    expect(readRule('Money line bets count overtime when the teams are tied after 60 minutes.', 'overtime', m('nhl', 'moneyline'))).toMatchObject({ value: 'included' });
    // Without a level score the condition's length of play is still read.
    expect(readRule('Totals are settled at the end of regulation time if overtime is played.', 'overtime', m('nba', 'total'))).toMatchObject({ value: 'excluded' });
  });
  it('periods named after a verb that follows a period and says what it is made of ("the 2nd half counts the 3rd and 4th quarters and any overtime") are its parts, not the clause\'s scope', () => {
    const text = 'c) The 2nd half counts the 3rd and 4th quarters and any overtime.';
    expect(readRule(text, 'overtime', { league: 'nba', marketType: 'total', segment: 'quarter:4' })).toEqual({ value: 'unknown', why: 'silent' });
    expect(readRule(text, 'overtime', { league: 'nba', marketType: 'spread', segment: 'half:2' })).toMatchObject({ value: 'included' });
    expect(readRule('The first half is the 1st and 2nd quarters and includes no overtime.', 'overtime', { league: 'nba', marketType: 'total', segment: 'quarter:2' })).toEqual({ value: 'unknown', why: 'silent' });
    // Periods listed before the verb are still the scope: "the 3rd quarter, the 4th quarter and any overtime count toward the second half".
    expect(readRule('Points scored in the 3rd quarter, the 4th quarter and any overtime count toward the second half.', 'overtime', { league: 'nba', marketType: 'spread', segment: 'half:2' })).toMatchObject({ value: 'included' });
  });
  it('"regulation only" outranks a bare count verb in its clause, as "regular time only" does: "points are counted over regulation only, and points scored in overtime are not included" excludes overtime', () => {
    expect(readRule("A player's points are counted over regulation only (48 minutes), and points scored in overtime are not included.", 'overtime', m('nba', 'player_prop'))).toMatchObject({ value: 'excluded' });
    expect(readRule('Totals are counted over regulation only.', 'overtime', m('nhl', 'total'))).toMatchObject({ value: 'excluded' });
    expect(readRule('Totals count overtime.', 'overtime', m('nhl', 'total'))).toMatchObject({ value: 'included' });
  });
  it('"counts neither as a win nor as a loss" denies the loss: "as" after the negation still heads the denied value', () => {
    expect(readRule('A pick graded as a push, no action or cancelled counts neither as a win nor as a loss.', 'push', m('nfl', 'total'))).toMatchObject({ value: 'void' });
    expect(readRule('A game that lands exactly on the posted spread is a push: it counts neither as a win nor as a loss for anyone who picked it.', 'push', m('nfl', 'spread'))).toMatchObject({ value: 'void' });
    expect(readRule('A pick that lands exactly on the line counts as a loss.', 'push', m('nfl', 'spread'))).toMatchObject({ value: 'loses' });
  });
  it('"dead heat rules apply" to a tied two-way line pays half (the stake divided between the two tied outcomes), as "half the stake" does', () => {
    expect(readRule('If a match is level after overtime, Match Odds bets are settled under dead heat rules: the stake is divided by two.', 'tie', m('nfl', 'moneyline'))).toMatchObject({ value: 'half_payout' });
    expect(readRule('When a two-way money line is offered and the game ends level, dead heat rules apply.', 'tie', m('nfl', 'moneyline'))).toMatchObject({ value: 'half_payout' });
    // Dead heat rules named with no tie of the game's stay silent for it.
    expect(readRule('Dead heat rules apply to the top goalscorer market.', 'tie', m('nfl', 'moneyline'))).toEqual({ value: 'unknown', why: 'silent' });
  });
});
describe('the twenty-third blind batch\'s wrong value: a contrast\'s elided verb before a reason (sentences written for these tests)', () => {
  it('", while X does not, since ..." denies the statement before it for X: the reason after the elliptical clause is a clause of its own', () => {
    const text = 'Note for bettors: the match total includes overtime, while the fourth-quarter handicap does not, since it is settled on the points of the fourth quarter only.';
    expect(readRule(text, 'overtime', m('wnba', 'spread', 'quarter:4'))).toMatchObject({ value: 'excluded' });
    expect(readRule(text, 'overtime', m('wnba', 'total'))).toMatchObject({ value: 'included', evidence: 'the match total includes overtime' });
    expect(readRule("Totals include overtime, but fourth-quarter spreads don't, because they settle on the quarter alone.", 'overtime', m('nba', 'spread', 'quarter:4'))).toMatchObject({ value: 'excluded' });
    expect(readRule('The money line includes overtime, while the fourth-quarter handicap does not, as it is settled on the fourth quarter alone.', 'overtime', m('nba', 'spread', 'quarter:4'))).toMatchObject({ value: 'excluded' });
  });
  it('", but X do, as ..." repeats the statement for X before a reason, and "and X too" / "as do X" carry the statement to X', () => {
    const text = 'Fourth-quarter lines do not include overtime, but full-game spreads do, as they run to the final whistle.';
    expect(readRule(text, 'overtime', m('nba', 'spread'))).toMatchObject({ value: 'included', evidence: 'full-game spreads do' });
    expect(readRule(text, 'overtime', m('nba', 'spread', 'quarter:4'))).toMatchObject({ value: 'excluded' });
    expect(readRule('Totals include overtime, and spreads too.', 'overtime', m('nba', 'spread'))).toMatchObject({ value: 'included' });
    expect(readRule('Totals include overtime, as do spreads.', 'overtime', m('nba', 'spread'))).toMatchObject({ value: 'included' });
  });
});
describe('stated values of the twenty-third blind batch read unknown (sentences written for these tests)', () => {
  it('"settled as a dead heat" for a game level after overtime pays half, as "dead heat rules" do; a dead heat between quarters says nothing of the game', () => {
    expect(readRule('If the game ends level after overtime, the winner bets are settled as a dead heat, at half the odds.', 'tie', m('nfl', 'moneyline'))).toMatchObject({ value: 'half_payout' });
    expect(readRule('Highest scoring quarter: a tie between quarters is settled as a dead heat.', 'tie', m('nfl', 'moneyline'))).toEqual({ value: 'unknown', why: 'silent' });
  });
  it('a pronoun object in a sentence naming its own market or period ("Bets on the second half do include it.") names the topic of the sentence before, but not after a preposition ("wagers on it")', () => {
    const text = 'For bettors: bets on the fourth quarter do not include the overtime, since only the points of the fourth quarter itself count. Bets on the second half do include it.';
    expect(readRule(text, 'overtime', m('nfl', 'total', 'half:2'))).toMatchObject({ value: 'included', evidence: 'Bets on the second half do include it' });
    expect(readRule(text, 'overtime', m('nfl', 'total', 'quarter:4'))).toMatchObject({ value: 'excluded' });
    expect(readRule('Overtime is played in the playoffs. Totals placed on it are void.', 'overtime', m('nhl', 'total'))).not.toMatchObject({ value: 'void' });
    expect(readRule('Overtime is played in the playoffs. Second-half bets on it are graded normally.', 'overtime', m('nba', 'total', 'half:2'))).toEqual({ value: 'unknown', why: 'silent' });
  });
  it('a hockey player\'s shift ("does not take a single shift", "stays on the bench") and a pitcher who "is not the starter" name his not taking part', () => {
    expect(readRule('A player who does not take a single shift has no action, and bets on him are refunded.', 'non_participation', m('nhl', 'player_prop'))).toMatchObject({ value: 'void' });
    expect(readRule('A player who stays on the bench all game has no action and the stake is returned.', 'non_participation', m('nhl', 'player_prop'))).toMatchObject({ value: 'void' });
    expect(readRule('A pitcher who is not the starter has no action on his strikeout line.', 'non_participation', m('mlb', 'player_prop'))).toMatchObject({ value: 'void' });
    expect(readRule('The starter pitches the first inning.', 'non_participation', m('mlb', 'player_prop'))).toEqual({ value: 'unknown', why: 'silent' });
  });
  it('"this market will resolve 50-50" is half the payout when the player does not play; a cancelled game\'s 50-50 says nothing of him', () => {
    expect(readRule('If Wilson does not play in the game, this market will resolve 50-50.', 'non_participation', m('wnba', 'player_prop'))).toMatchObject({ value: 'half_payout' });
    expect(readRule('If the game is cancelled with no make-up game, the market resolves 50-50.', 'non_participation', m('wnba', 'player_prop'))).toEqual({ value: 'unknown', why: 'silent' });
  });
  it('a clause blocked only by the one side it names ("the handicap goes to the favourite") does not block the statement after its semicolon', () => {
    const text = 'Heads-up with handicap (spread): the handicap goes to the favourite and is subtracted from its final score; extra time is taken into consideration.';
    expect(readRule(text, 'overtime', m('nba', 'spread'))).toMatchObject({ value: 'included', evidence: 'extra time is taken into consideration' });
    // The side's own clause still settles nothing for the market.
    expect(readRule('Spreads: if you back the favourite, overtime is not counted.', 'overtime', m('nba', 'spread'))).toEqual({ value: 'unknown', why: 'silent' });
  });
  it('a relative clause on a contrasted market (", unlike the 1X2, which is settled on regulation time") describes that market and is left out with it', () => {
    const text = "For those who bet on the NHL: the 'winner' bet includes overtime and the shootout, unlike the 1X2, which is settled on regulation time.";
    expect(readRule(text, 'overtime', m('nhl', 'moneyline'))).toMatchObject({ value: 'included', evidence: "the 'winner' bet includes overtime and the shootout" });
    expect(readRule('Unlike the 1X2, which is settled on regulation time, the winner bet includes overtime.', 'overtime', m('nhl', 'moneyline'))).toMatchObject({ value: 'included' });
    // The contrasted market takes no value from the sentence.
    expect(readRule('Totals include overtime, unlike fourth-quarter lines, which are settled on the quarter alone.', 'overtime', m('nba', 'spread', 'quarter:4'))).toEqual({ value: 'unknown', why: 'silent' });
  });
  it('a reason after a statement ("..., since only the points of the fourth quarter count") is a clause of its own that takes no topic from it, and ", and ..." ends an elliptical clause', () => {
    const text = 'For bettors: bets on the fourth quarter do not include the overtime, since only the points of the fourth quarter itself count.';
    expect(readRule(text, 'overtime', m('nfl', 'total', 'quarter:4'))).toMatchObject({ value: 'excluded', evidence: 'bets on the fourth quarter do not include the overtime' });
    expect(readRule('Second-half totals include overtime, because only the points after half-time count.', 'overtime', m('nba', 'total', 'half:2'))).toMatchObject({ value: 'included' });
    const annex = "Annex for bettors: in bets on the second half, the points of any overtime count; in bets on the fourth quarter they do not, and only the fourth quarter's own points decide.";
    expect(readRule(annex, 'overtime', m('wnba', 'spread', 'quarter:4'))).toMatchObject({ value: 'excluded' });
    expect(readRule(annex, 'overtime', m('wnba', 'total', 'half:2'))).toMatchObject({ value: 'included' });
    // A bare auxiliary inside a case ends no statement: "if it is, and ..." stays one clause.
    expect(readRule('Check whether a half point is posted; if it is not, and the game ends on the number, the stake is refunded.', 'push', m('nfl', 'total'))).toMatchObject({ value: 'void' });
  });
  it('"a team\'s own total" (one team\'s goals, points or runs) is the team total, not the game\'s total', () => {
    expect(readRule("A team's own goal total counts overtime as well.", 'overtime', m('nhl', 'team_total'))).toMatchObject({ value: 'included' });
    expect(readRule("Overtime points count for a team's own points total.", 'overtime', m('nba', 'team_total'))).toMatchObject({ value: 'included' });
    expect(readRule("A team's own total counts overtime.", 'overtime', m('nhl', 'total'))).toEqual({ value: 'unknown', why: 'silent' });
  });
});
describe('the twenty-fourth blind batch\'s wrong value and silent rows read known (sentences written for these tests)', () => {
  it('a sport named beside another sport\'s leagues ("basketball, the NFL and MLB") stands whole; a league still narrows its own sport ("NBA basketball")', () => {
    const text = 'All markets are settled on regulation time. Exceptions are basketball, the NFL and MLB, where extra time is included in bets on the final result.';
    expect(readRule(text, 'overtime', m('nba', 'moneyline'))).toMatchObject({ value: 'included', evidence: 'Exceptions are basketball, the NFL and MLB, where extra time is included in bets on the final result' });
    expect(readRule(text, 'overtime', m('wnba', 'moneyline'))).toMatchObject({ value: 'included' });
    expect(readRule(text, 'overtime', m('nfl', 'moneyline'))).toMatchObject({ value: 'included' });
    expect(readRule(text, 'overtime', m('nhl', 'moneyline'))).toMatchObject({ value: 'excluded' });
    const nba = 'All markets are settled on regulation time. In NBA basketball and the NFL, overtime counts.';
    expect(readRule(nba, 'overtime', m('nba', 'moneyline'))).toMatchObject({ value: 'included' });
    expect(readRule(nba, 'overtime', m('wnba', 'moneyline'))).toMatchObject({ value: 'excluded' });
  });
  it('a glossary entry ("Penalty shootout: in ice hockey, the decision ...") and the sentences describing its term state no rule; a heading or a sentence naming markets ends it', () => {
    const entry = 'Penalty shootout: in ice hockey, the decision when a game is still level despite overtime. Five players from each side shoot. The winner of the shootout gets one goal added to the drawn result.';
    expect(readRule(entry, 'overtime', m('nhl', 'total'))).toEqual({ value: 'unknown', why: 'silent' });
    expect(readRule(`${entry} Totals: the shootout winner gets one goal added to the total.`, 'overtime', m('nhl', 'total'))).toMatchObject({ value: 'included' });
    expect(readRule(`${entry} All bets include overtime.`, 'overtime', m('nhl', 'total'))).toMatchObject({ value: 'included' });
    // A settlement heading, or an entry stating a value, is no glossary entry.
    expect(readRule('Shootout: the winner of the shootout gets one goal added to the final score.', 'overtime', m('nhl', 'total'))).toMatchObject({ value: 'included' });
  });
  it('a noun phrase of its own before a closing "included" ("..., the World Series included") names what the statement holds for, not overtime', () => {
    expect(readRule('In the postseason extra innings go on until there is a winner, the World Series included.', 'overtime', m('mlb', 'total'))).toEqual({ value: 'unknown', why: 'silent' });
    expect(readRule('All bets are settled on the final score, the overtime included.', 'overtime', m('mlb', 'total'))).toMatchObject({ value: 'included' });
    expect(readRule('All bets are settled on the official result, overtime and the penalty shootout included.', 'overtime', m('nhl', 'total'))).toMatchObject({ value: 'included' });
    expect(readRule('Totals count every run, extra innings included.', 'overtime', m('mlb', 'total'))).toMatchObject({ value: 'included' });
  });
  it('a "Winner:" label names the winner market, and a sentence whose subject is the result ("The result is determined by the final score ...") stands under its market heading', () => {
    const text = "Winner: if the Kings win, the market resolves to 'Kings'; if the Raptors win, 'Raptors'. The result is determined by the final score including any overtime periods. Spread, Raptors -14.5: resolves to 'Raptors' if the Raptors win by 15 or more points; otherwise it resolves to 'Kings'.";
    expect(readRule(text, 'overtime', m('nba', 'moneyline'))).toMatchObject({ value: 'included', evidence: 'The result is determined by the final score including any overtime periods' });
    expect(readRule(text, 'overtime', m('nba', 'spread'))).toEqual({ value: 'unknown', why: 'silent' });
    // The final score named in a sentence of its own (not its subject) still speaks of the whole game.
    expect(readRule('Spread (Home -3.5): resolves to Home if Home wins by 4 or more. Overtime is included in the final score.', 'overtime', m('nba', 'total'))).toMatchObject({ value: 'included' });
  });
  it('a topic\'s gap that opens a consequence ("the player must take part in the match, otherwise the bets are cancelled") names the bets cancelled, not the game', () => {
    const text = 'Player points: the player must take part in the match, otherwise the bets are cancelled and stakes returned.';
    expect(readRule(text, 'cancellation', m('nba', 'player_prop'))).toEqual({ value: 'unknown', why: 'silent' });
    expect(readRule(text, 'non_participation', m('nba', 'player_prop'))).toMatchObject({ value: 'void' });
    expect(readRule('If the match is cancelled, the bets are void.', 'cancellation', m('nba', 'player_prop'))).toMatchObject({ value: 'void' });
  });
  it('a section of definitions ends at a heading naming a league with the product before it ("Sportsbook, ice hockey (NHL):")', () => {
    const text = "2. Definitions: 'Games' means casino, sportsbook and any other game on the site. Sportsbook, ice hockey (NHL): the money line includes overtime and the shootout. Totals include overtime; if the total lands exactly on the line, the stake is refunded.";
    expect(readRule(text, 'overtime', m('nhl', 'moneyline'))).toMatchObject({ value: 'included', evidence: 'the money line includes overtime and the shootout' });
    expect(readRule(text, 'push', m('nhl', 'total'))).toMatchObject({ value: 'void' });
    // A definition's own term stays in the section.
    expect(readRule("2. Definitions: 'Push' means a bet refunded when the total lands on the line.", 'push', m('nhl', 'total'))).toEqual({ value: 'unknown', why: 'silent' });
  });
  it('overtime "scored into" (or "counted into") a game or a half is included in it', () => {
    const text = 'Settlement note: extra time is scored into the full game and into the second half.';
    expect(readRule(text, 'overtime', m('wnba', 'spread', 'half:2'))).toMatchObject({ value: 'included' });
    expect(readRule('Overtime points are counted into the game total.', 'overtime', m('nba', 'total'))).toMatchObject({ value: 'included' });
    expect(readRule(text, 'overtime', m('wnba', 'spread', 'quarter:4'))).toEqual({ value: 'unknown', why: 'silent' });
  });
  it('a two-legged tie ("where there is a first and second leg with an aggregate score") is a format outside our leagues: its settlement is no rule for a game of ours', () => {
    const text = 'Overtime counts for all offers unless stated otherwise. Where there is a first and second leg with an aggregate score, full-game offers are settled on the result after regulation time and any overtime is not counted.';
    expect(readRule(text, 'overtime', m('nba', 'total'))).toMatchObject({ value: 'included', evidence: 'Overtime counts for all offers' });
    expect(readRule('Where the two legs are settled on the aggregate score, overtime is not counted.', 'overtime', m('nba', 'total'))).toEqual({ value: 'unknown', why: 'silent' });
  });
  it('"a team\'s run total" (goal, points) is the team total, as "a team\'s own total" is', () => {
    expect(readRule("A note for readers who bet: a team's run total counts the runs of extra innings.", 'overtime', m('mlb', 'team_total'))).toMatchObject({ value: 'included' });
    expect(readRule("A team's goal total counts overtime goals.", 'overtime', m('nhl', 'team_total'))).toMatchObject({ value: 'included' });
    expect(readRule("A team's run total counts the runs of extra innings.", 'overtime', m('mlb', 'total'))).toEqual({ value: 'unknown', why: 'silent' });
  });
  it('"a batter\'s hits bet" is a player\'s market, and "stands only if he comes to the plate at least once, otherwise it is cancelled" voids it for a batter who does not', () => {
    const text = "For those who bet: the winner bet counts extra innings; a batter's hits bet stands only if he comes to the plate at least once, otherwise it is cancelled and the stake returned, and hits in extra innings count.";
    expect(readRule(text, 'non_participation', m('mlb', 'player_prop'))).toMatchObject({ value: 'void' });
    expect(readRule(text, 'overtime', m('mlb', 'player_prop'))).toMatchObject({ value: 'included' });
    // A player who does not come to the plate again (taken out mid-game) is no non-participation.
    expect(readRule('If a player does not come to the plate again, undecided markets are void.', 'non_participation', m('mlb', 'player_prop'))).toEqual({ value: 'unknown', why: 'silent' });
  });
  it('a player\'s over/under that "resolves \'Under\'" when he does not take the court loses the bet on the over, as "resolves No" does', () => {
    const text = "Player points: Sabonis rebounds O/U 12.5 resolves 'Over' if he records more than 12.5 rebounds; if he is listed inactive or does not take the court at any point, it resolves 'Under'.";
    expect(readRule(text, 'non_participation', m('nba', 'player_prop'))).toMatchObject({ value: 'loses' });
    expect(readRule("Player points: it resolves 'Under' if he records 12 rebounds or fewer.", 'non_participation', m('nba', 'player_prop'))).toEqual({ value: 'unknown', why: 'silent' });
  });
  it('a player who "must be in the game for the bet to count" voids the bet of one who is not, as "for the bet to stand" does', () => {
    expect(readRule('For bets on player performance the player or players must be in the game for the bet to count.', 'non_participation', m('nba', 'player_prop'))).toMatchObject({ value: 'void' });
    expect(readRule('Overtime must be played in full for the bet to count.', 'non_participation', m('nba', 'player_prop'))).toEqual({ value: 'unknown', why: 'silent' });
  });
  it('"bets on either team are losing" after a game level after overtime loses them, as "lose" does', () => {
    const text = 'Head-to-head: if the match ends level after overtime, bets on either team are losing.';
    expect(readRule(text, 'tie', m('nfl', 'moneyline'))).toMatchObject({ value: 'loses' });
    expect(readRule('Head-to-head: bets on the team that trails are losing until the end.', 'tie', m('nfl', 'moneyline'))).toEqual({ value: 'unknown', why: 'silent' });
  });
  it('a case after a semicolon with no consequence of its own ("...; if the game ends in a tie for any reason; ...") continues the statement\'s list of cases', () => {
    const text = 'The market is canceled (invalid) if the game is canceled, postponed indefinitely or played outside that window; if the game ends in a tie for any reason; or if the result source fails to give an outcome.';
    expect(readRule(text, 'tie', m('nfl', 'moneyline'))).toMatchObject({ value: 'void' });
    // A case with its own consequence states its own value; a statement with no case of its own lists none.
    expect(readRule('The market is canceled if the game is canceled, postponed or moved; if the game ends in a tie, it resolves No.', 'tie', m('nfl', 'moneyline'))).toMatchObject({ value: 'loses' });
    expect(readRule('Bets are refunded; if the game ends in a tie for any reason.', 'tie', m('nfl', 'moneyline'))).toEqual({ value: 'unknown', why: 'silent' });
  });
});
describe('the twenty-fifth blind batch\'s wrong values and silent row read known (sentences written for these tests)', () => {
  it('", while a bet on a single quarter ..." is a statement of its own: a bet named by the market or period it is placed on is a subject, as "quarter bets" is', () => {
    const text = 'For bets: a bet on the match winner is settled with every overtime included, while a bet on a single quarter, the fourth included, counts only the points of that quarter, without overtime.';
    expect(readRule(text, 'overtime', m('nba', 'moneyline'))).toMatchObject({ value: 'included', evidence: 'a bet on the match winner is settled with every overtime included' });
    expect(readRule(text, 'overtime', m('nba', 'total', 'quarter:4'))).toMatchObject({ value: 'excluded' });
    const and = 'Spreads include overtime, and bets on the fourth quarter are settled without overtime.';
    expect(readRule(and, 'overtime', m('nfl', 'spread'))).toMatchObject({ value: 'included', evidence: 'Spreads include overtime' });
    expect(readRule(and, 'overtime', m('nfl', 'spread', 'quarter:4'))).toMatchObject({ value: 'excluded' });
    // A bet on something that names no market or period is no subject of its own: the statement goes on.
    expect(readRule('Totals include overtime, while a bet on that is graded the same way.', 'overtime', m('nfl', 'total'))).toMatchObject({ value: 'included' });
  });
  it('"the winner line" is the money line, and ", but a bet on the fourth quarter ..." takes no market from it; "counts only that quarter\'s points" leaves overtime out', () => {
    const text = "A note for bettors: the winner line is settled with the overtime included, but a bet on the fourth quarter counts only that quarter's points.";
    expect(readRule(text, 'overtime', m('wnba', 'total', 'quarter:4'))).toMatchObject({ value: 'excluded' });
    expect(readRule(text, 'overtime', m('wnba', 'moneyline'))).toMatchObject({ value: 'included', evidence: 'the winner line is settled with the overtime included' });
    expect(readRule('On the winner lines overtime counts.', 'overtime', m('nba', 'total'))).toEqual({ value: 'unknown', why: 'silent' });
    expect(readRule('Totals count overtime, but quarter totals count only the points of that quarter.', 'overtime', m('nba', 'total', 'quarter:2'))).toMatchObject({ value: 'excluded' });
    // Said of quarter bets with no word of overtime, it names what the quarter is, not the rule: a later "the fourth quarter includes any overtime" decides the fourth.
    expect(readRule('Quarter bets count only the points of that quarter, but the fourth quarter includes any overtime played.', 'overtime', m('nba', 'total', 'quarter:4'))).toMatchObject({ value: 'included' });
    // "Totals include overtime, but fourth-quarter ones do not": a subject that is no bet named by its period still takes the market.
    expect(readRule('Totals include overtime, but fourth-quarter ones do not.', 'overtime', m('nba', 'moneyline', 'quarter:4'))).toEqual({ value: 'unknown', why: 'silent' });
  });
  it('a moment named right after a level score ("a game level at the end of regulation goes to extra time") says when overtime is played, not that bets settle at the end of regulation', () => {
    expect(readRule('In basketball, a game level at the end of regulation normally goes to extra time to find a winner.', 'overtime', m('wnba', 'spread', 'half:2'))).toEqual({ value: 'unknown', why: 'silent' });
    expect(readRule('A game tied at the end of regulation goes to overtime.', 'overtime', m('nba', 'total'))).toEqual({ value: 'unknown', why: 'silent' });
    // Bets settled at the end of regulation still leave overtime out.
    expect(readRule('Totals are settled at the end of regulation.', 'overtime', m('nba', 'total'))).toMatchObject({ value: 'excluded' });
    expect(readRule('A game level at the end of regulation goes to extra time. Player points bets are settled at the end of regulation.', 'overtime', m('nba', 'player_prop'))).toMatchObject({ value: 'excluded', evidence: 'Player points bets are settled at the end of regulation' });
  });
  it('", while the game total counted both overtime field goals" is a statement of its own: "game" or "match" before a market names the game, and the market is the subject', () => {
    const text = 'For the people holding tickets, the books graded every moneyline bet on the game as no action and handed the stakes back, while the game total counted both overtime field goals, so the over cashed long before the end.';
    expect(readRule(text, 'overtime', m('nfl', 'moneyline'))).toEqual({ value: 'unknown', why: 'silent' });
    expect(readRule(text, 'overtime', m('nfl', 'total'))).toMatchObject({ value: 'included', evidence: 'the game total counted both overtime field goals' });
    expect(readRule('Moneylines exclude overtime, while the match spread counts it.', 'overtime', m('nhl', 'moneyline'))).toMatchObject({ value: 'excluded' });
  });
});
describe('stated values of the twenty-fifth blind batch read unknown (sentences written for these tests)', () => {
  it('after a semicolon, "second-half lines" (a period with a bare market noun) takes no market from the clause before, and a player\'s market named alone takes no period', () => {
    const text = "For betting: on the two-way winner line the extra periods count; second-half lines also take in the extra periods; a player's points bet counts the points she scores in extra time.";
    expect(readRule(text, 'overtime', m('wnba', 'spread', 'half:2'))).toMatchObject({ value: 'included', evidence: 'second-half lines also take in the extra periods' });
    expect(readRule(text, 'overtime', m('wnba', 'player_prop'))).toMatchObject({ value: 'included' });
    // A period named with no bare market noun still takes the market of the clause before ("Totals: ...; the fourth quarter ...").
    expect(readRule('Totals: the full game includes overtime; the fourth quarter does not.', 'overtime', m('nba', 'spread', 'quarter:4'))).toEqual({ value: 'unknown', why: 'silent' });
  });
  it('"a batter\'s hits bet" (a hitter\'s, a pitcher\'s) is a player\'s market, as "a player\'s points bet" is', () => {
    const text = "How bets are settled: the total-runs line counts every run, extra innings included; a batter's hits bet counts hits in extra innings too, and if the batter is not in the starting lineup the bet is void and the stake returned.";
    expect(readRule(text, 'overtime', m('mlb', 'player_prop'))).toMatchObject({ value: 'included' });
    expect(readRule(text, 'non_participation', m('mlb', 'player_prop'))).toMatchObject({ value: 'void' });
    expect(readRule(text, 'overtime', m('mlb', 'total'))).toMatchObject({ value: 'included', evidence: 'the total-runs line counts every run, extra innings included' });
    // A batter named with no market noun after the stat is no market of its own.
    expect(readRule('Totals count extra innings; a batter hits the ball in extra innings too.', 'overtime', m('mlb', 'player_prop'))).toEqual({ value: 'unknown', why: 'silent' });
  });
  it('"a team\'s goal total" (points, run total) is the team total, as "a team\'s own goal total" is', () => {
    expect(readRule("For those who bet: a team's goal total includes overtime goals.", 'overtime', m('nhl', 'team_total'))).toMatchObject({ value: 'included' });
    expect(readRule("A team's points total counts overtime.", 'overtime', m('nba', 'team_total'))).toMatchObject({ value: 'included' });
    expect(readRule("A team's goal total includes overtime goals.", 'overtime', m('nhl', 'total'))).toEqual({ value: 'unknown', why: 'silent' });
  });
});
describe('stated values of the twenty-sixth and twenty-fifth blind batches read unknown, round 38 (sentences written for these tests)', () => {
  it('an odds feed\'s regulation-only period ("the reg period", "periodID \'reg\'") is a market outside ours: what it covers contradicts no full-game period', () => {
    const text = "The periodID 'game' spans the whole match, overtime included; the periodID 'reg' spans regulation only.";
    expect(readRule(text, 'overtime', m('nhl', 'total'))).toMatchObject({ value: 'included', evidence: "The periodID 'game' spans the whole match, overtime included" });
    expect(readRule('Our game period counts overtime and the shootout; the reg period counts regulation time only.', 'overtime', m('nhl', 'moneyline'))).toMatchObject({ value: 'included' });
    // Regulation named with no such period still states its value for the market.
    expect(readRule('The game period spans regulation only.', 'overtime', m('nhl', 'total'))).toMatchObject({ value: 'excluded' });
  });
  it('a definitions heading naming what the venue offers ("Period definitions:", "Market definitions:") opens its own periods\' or markets\' rules, not a glossary', () => {
    const text = 'Period definitions: the full-game period counts every overtime; the first-half period ends at halftime.';
    expect(readRule(text, 'overtime', m('nba', 'total'))).toMatchObject({ value: 'included', evidence: 'the full-game period counts every overtime' });
    expect(readRule('Market definitions: the moneyline is settled on regulation time only.', 'overtime', m('nhl', 'moneyline'))).toMatchObject({ value: 'excluded' });
    // A heading of definitions alone still opens a glossary.
    expect(readRule('Definitions: the full-game period counts every overtime.', 'overtime', m('nba', 'total'))).toEqual({ value: 'unknown', why: 'silent' });
  });
  it('a clause naming quarters takes no hockey or baseball from the clause before: those leagues play no quarters', () => {
    const text = 'The game period counts overtime and a hockey shootout; quarter periods cover one quarter alone and never include overtime.';
    expect(readRule(text, 'overtime', m('nba', 'total', 'quarter:4'))).toMatchObject({ value: 'excluded', evidence: 'quarter periods cover one quarter alone and never include overtime' });
    expect(readRule(text, 'overtime', m('nfl', 'total', 'quarter:4'))).toMatchObject({ value: 'excluded' });
    // A basketball clause before still gives its league to the quarters.
    expect(readRule('NBA games count overtime; quarter bets never include overtime.', 'overtime', m('wnba', 'total', 'quarter:4'))).toEqual({ value: 'unknown', why: 'silent' });
  });
  it('a period that qualifies its own market noun ("a third-quarter spread") is that market\'s: a market named alone after a semicolon does not take it', () => {
    const text = 'Settling these: a third-quarter spread counts that quarter alone; a team total counts every point of the team, overtime included.';
    expect(readRule(text, 'overtime', m('nba', 'team_total'))).toMatchObject({ value: 'included', evidence: 'a team total counts every point of the team, overtime included' });
    expect(readRule(text, 'overtime', m('nba', 'team_total', 'quarter:3'))).toEqual({ value: 'unknown', why: 'silent' });
  });
  it('"counts only the fourth quarter\'s points, not any overtime": what "only" narrows the count to leaves overtime out, as the exception says', () => {
    expect(readRule("A fourth-quarter spread counts only the fourth quarter's points, not any overtime.", 'overtime', m('nfl', 'spread', 'quarter:4'))).toMatchObject({ value: 'excluded' });
    expect(readRule("Totals count only the points of regulation, not any overtime.", 'overtime', m('nfl', 'total'))).toMatchObject({ value: 'excluded' });
    // Read without the exception, "counts only ..." still names no value.
    expect(readRule("A fourth-quarter spread counts only the fourth quarter's points.", 'overtime', m('nfl', 'spread', 'quarter:4'))).toEqual({ value: 'unknown', why: 'silent' });
  });
  it('"graded on every overtime period" (settled on each, on all overtime) includes overtime', () => {
    expect(readRule('Your full-game side and total are graded on every overtime period.', 'overtime', m('nba', 'total'))).toMatchObject({ value: 'included' });
    expect(readRule('Game lines are settled on all overtime played.', 'overtime', m('nhl', 'spread'))).toMatchObject({ value: 'included' });
  });
  it('"does not enter the court" (the ice, the field, the floor) is a player not taking part', () => {
    expect(readRule('If the player does not enter the court at all, the bet is refunded.', 'non_participation', m('wnba', 'player_prop'))).toMatchObject({ value: 'void' });
    expect(readRule('A skater who never enters the ice has his bet voided.', 'non_participation', m('nhl', 'player_prop'))).toMatchObject({ value: 'void' });
    // The game entering its last minutes names no player.
    expect(readRule('Bets stand once the teams enter the court.', 'non_participation', m('nba', 'player_prop'))).toEqual({ value: 'unknown', why: 'silent' });
  });
  it('"all markets resolve to 50/50" for a player who does not play, and "a fair market price" for a cancelled game', () => {
    expect(readRule('If the player is inactive, all markets resolve to 50/50.', 'non_participation', m('nba', 'player_prop'))).toMatchObject({ value: 'half_payout' });
    expect(readRule('If the game is cancelled and not replayed within a week, the markets resolve to a fair market price.', 'cancellation', m('nba', 'player_prop'))).toMatchObject({ value: 'fair_price' });
  });
  it('a comma before "not" inside parentheses ("(inactive, not entered, or absent)") lists cases and opens no exception', () => {
    const text = 'Clarification: if the player is missing from the game (injured, not dressed, or suspended), every contract resolves to No.';
    expect(readRule(text, 'non_participation', m('nba', 'player_prop'))).toMatchObject({ value: 'loses', evidence: 'if the player is missing from the game (injured, not dressed, or suspended), every contract resolves to No' });
    // Outside parentheses ", not" still opens one.
    expect(readRule('Totals include overtime, not the shootout.', 'overtime', m('nhl', 'total'))).toMatchObject({ value: 'included' });
  });
  it('"overtime and penalty shootouts excluded": a shootout phrase joined to overtime before it says the same of overtime', () => {
    expect(readRule('Hockey: bets are settled on the final result, overtime and penalty shootouts excluded.', 'overtime', m('nhl', 'moneyline'))).toMatchObject({ value: 'excluded' });
    expect(readRule('Totals: extra time or the shootout excluded.', 'overtime', m('nhl', 'total'))).toMatchObject({ value: 'excluded' });
    // The shootout alone left out still says nothing against overtime.
    expect(readRule('The result includes overtime, penalty shootouts excluded.', 'overtime', m('nhl', 'moneyline'))).toMatchObject({ value: 'included' });
  });
  it('"... as a loss for both sides rather than a refund" (instead of a refund): the value set aside is not stated', () => {
    expect(readRule('A spread that lands exactly on the number is graded as a loss for both sides rather than a refund.', 'push', m('nfl', 'spread'))).toMatchObject({ value: 'loses' });
    expect(readRule('If the total lands on the number, both tickets lose instead of a refund.', 'push', m('nba', 'total'))).toMatchObject({ value: 'loses' });
    // A refund stated on its own is still read.
    expect(readRule('If the total lands on the number, the stake is refunded.', 'push', m('nba', 'total'))).toMatchObject({ value: 'void' });
  });
  it('"a team that wins in overtime is recorded as the match winner" includes overtime for the money line only', () => {
    const text = 'Settlement: a team that wins in overtime or a shootout is recorded as the match winner for a head-to-head market.';
    expect(readRule(text, 'overtime', m('nhl', 'moneyline'))).toMatchObject({ value: 'included' });
    expect(readRule('A side winning in extra innings is treated as the winner.', 'overtime', m('mlb', 'moneyline'))).toMatchObject({ value: 'included' });
    // Said through a team winning, it is no statement for a total.
    expect(readRule('A team that wins in overtime is counted as the winner.', 'overtime', m('nhl', 'total'))).toEqual({ value: 'unknown', why: 'silent' });
  });
  it('"the final score with any overtime periods" includes overtime, and "the winning team\'s score gets one added goal" counts the shootout', () => {
    expect(readRule('Resolution uses the final score with any overtime periods and shootouts.', 'overtime', m('nhl', 'total'))).toMatchObject({ value: 'included' });
    expect(readRule('If a shootout settles it, the winning side gets one added goal.', 'overtime', m('nhl', 'moneyline'))).toMatchObject({ value: 'included' });
    // With overtime left out it still reads excluded.
    expect(readRule('Resolution uses the final score with overtime excluded.', 'overtime', m('nhl', 'total'))).toMatchObject({ value: 'excluded' });
  });
  it('"only markets clearly labelled \'including extra time\' are paid when extra time ends": the markets with no such label leave overtime out', () => {
    const text = "If a game goes to extra time, only markets clearly labelled 'including extra time' are settled once it ends.";
    expect(readRule(text, 'overtime', m('nhl', 'moneyline'))).toMatchObject({ value: 'excluded', evidence: text.slice(0, -1) });
    expect(readRule("Only bets marked as incl. OT count overtime.", 'overtime', m('nba', 'total'))).toMatchObject({ value: 'excluded' });
    // A label on some markets with no "only" says nothing of the others.
    expect(readRule("Markets labelled 'including extra time' count extra time.", 'overtime', m('nba', 'total'))).toEqual({ value: 'unknown', why: 'silent' });
  });
  it('a contract\'s "No when he ... is listed inactive" (No if ...) resolves No for a player who does not play; an answer "No, if ..." resolves nothing', () => {
    const text = 'Player points: Yes when the player scores more than the line; No when he falls short or is listed inactive.';
    expect(readRule(text, 'non_participation', m('nba', 'player_prop'))).toMatchObject({ value: 'loses', evidence: 'No when he falls short or is listed inactive' });
    expect(readRule('Rebounds contract: No if the player is ruled out before tip-off.', 'non_participation', m('wnba', 'player_prop'))).toMatchObject({ value: 'loses' });
    expect(readRule('Does a scratched player count? No, if a player is scratched the bet is void.', 'non_participation', m('nba', 'player_prop'))).toMatchObject({ value: 'void' });
  });
  it('a draw that is "its own choice on the slip" is a separate outcome, and "the result is read after overtime" includes overtime', () => {
    expect(readRule('In the pools game a match level after overtime is a draw, its own choice on the coupon.', 'tie', m('nfl', 'moneyline'))).toMatchObject({ value: 'separate_outcome' });
    expect(readRule('For the pools, the result is read after overtime.', 'overtime', m('nfl', 'moneyline'))).toMatchObject({ value: 'included' });
    // A choice that is the bettor's own names no outcome.
    expect(readRule('If the game ends level, the choice of market is your own.', 'tie', m('nfl', 'moneyline'))).toEqual({ value: 'unknown', why: 'silent' });
  });
  it('a contract\'s "Outcomes:" list with the tie as an item of its own ("...; Tie") makes the tie a separate outcome', () => {
    const text = 'Outcomes: Boston wins the first 5 innings; Toronto wins the first 5 innings; Tie.';
    expect(readRule(text, 'tie', m('mlb', 'moneyline', 'half:1'))).toMatchObject({ value: 'separate_outcome', evidence: 'Outcomes: ... Tie' });
    expect(readRule('Possible outcomes: the Jets win; the Giants win; a draw.', 'tie', m('nfl', 'moneyline'))).toMatchObject({ value: 'separate_outcome' });
    // A list under another heading, or the tie named in a sentence, is no list of outcomes.
    expect(readRule('Notes: Boston won the first game; Toronto the second; tie.', 'tie', m('mlb', 'moneyline'))).toEqual({ value: 'unknown', why: 'silent' });
  });
});
describe('the twenty-seventh blind batch\'s wrong values and the pair read alike (sentences written for these tests)', () => {
  it('"nobody earns or loses points on it": a verb coordinated right before the value word shares its denied subject', () => {
    expect(readRule('If a game ends in a tie, nobody earns or loses points on it and the week is scored on the other games.', 'tie', m('nfl', 'moneyline'))).toMatchObject({ value: 'unknown' });
    expect(readRule('A tied game counts for no one: no one gains or loses anything on it.', 'tie', m('nfl', 'moneyline'))).toMatchObject({ value: 'unknown' });
    // A loss that is not denied still settles the tie, and "or" after a subject that is not denied denies nothing.
    expect(readRule('If a game ends in a tie, your pick loses.', 'tie', m('nfl', 'moneyline'))).toMatchObject({ value: 'loses' });
    expect(readRule('If a game ends in a tie, every pick that was made or loses.', 'tie', m('nfl', 'moneyline'))).toMatchObject({ value: 'loses' });
  });
  it('", while second-half lines run through the third and fourth quarters and any overtime" is a statement of its own: a period "runs through" the periods it lists, overtime among them', () => {
    const text = 'Fourth-quarter bets end with regulation, so overtime does not count for them, while second-half bets run through the third and fourth quarters and any overtime.';
    expect(readRule(text, 'overtime', m('nba', 'spread', 'half:2'))).toMatchObject({ value: 'included', evidence: 'second-half bets run through the third and fourth quarters and any overtime' });
    expect(readRule(text, 'overtime', m('nba', 'total', 'quarter:4'))).toMatchObject({ value: 'excluded' });
    expect(readRule('The full-game total runs through overtime.', 'overtime', m('nhl', 'total'))).toMatchObject({ value: 'included' });
    // Periods listed after "run through" are what the period spans, not markets the statement speaks of.
    expect(readRule('Second-half lines run through the third and fourth quarters and any overtime.', 'overtime', m('nba', 'total', 'quarter:3'))).toEqual({ value: 'unknown', why: 'silent' });
    // With no overtime named, "run through" states nothing.
    expect(readRule('Second-half lines run through the third and fourth quarters.', 'overtime', m('nba', 'spread', 'half:2'))).toEqual({ value: 'unknown', why: 'silent' });
  });
});
describe('stated values of the twenty-seventh blind batch read unknown (sentences written for these tests)', () => {
  it('"scoring is non-spread": a market denied by "non" is no market the clause speaks of, so the statement after it holds for every market', () => {
    const text = 'Rule 4: scoring is non-spread; the team that wins is the right pick, and if the game ends in a tie both teams are losing picks.';
    expect(readRule(text, 'tie', m('nfl', 'moneyline'))).toMatchObject({ value: 'loses', evidence: 'the team that wins is the right pick, and if the game ends in a tie both teams are losing picks' });
    // A market named with no "non" still holds the statement after it to that market.
    expect(readRule('Rule 4: scoring is against the spread; if the game ends in a tie both teams are losing picks.', 'tie', m('nfl', 'moneyline'))).toEqual({ value: 'unknown', why: 'silent' });
    // "non-NFL" is still the complement of a league.
    expect(readRule('In non-NFL games a tie loses.', 'tie', m('nfl', 'moneyline'))).toEqual({ value: 'unknown', why: 'silent' });
  });
  it('"the pick earns no points and loses none" is neither a win nor a loss: a denied loss beside "earns no points", and "loses none" denies the loss', () => {
    const text = 'When the favorite wins by exactly the spread the game is a push: the pick earns no points and loses none.';
    expect(readRule(text, 'push', m('nfl', 'spread'))).toMatchObject({ value: 'void', evidence: 'When the favorite wins by exactly the spread the game is a push' });
    expect(readRule('On a push your pick loses nothing.', 'push', m('nfl', 'spread'))).toEqual({ value: 'unknown', why: 'silent' });
    // "earns no points" alone is still a loss in a pick contest.
    expect(readRule('On a push the pick earns no points.', 'push', m('nfl', 'spread'))).toMatchObject({ value: 'loses' });
  });
  it('"counts as a miss", "is scored as a wrong pick": a miss and a wrong pick are losses a case is graded as', () => {
    expect(readRule('If a game ends in a tie, it counts as a miss on every sheet.', 'tie', m('nfl', 'moneyline'))).toMatchObject({ value: 'loses' });
    expect(readRule('There are no pushes: a pick on a game that lands exactly on the spread is scored as a wrong pick.', 'push', m('nfl', 'spread'))).toMatchObject({ value: 'loses' });
    expect(readRule('If the game ends in a tie, the pick is counted as an incorrect pick.', 'tie', m('nfl', 'moneyline'))).toMatchObject({ value: 'loses' });
    // A miss that is no grade of the case states nothing.
    expect(readRule('If a game ends in a tie, check for a miss on your sheet.', 'tie', m('nfl', 'moneyline'))).toEqual({ value: 'unknown', why: 'silent' });
  });
  it('a team\'s total: "a team\'s own goals total" names the team total, ", but a team\'s points total ..." and "; a team total ..." take no period from the clause before', () => {
    expect(readRule("A team's own goals total includes overtime goals but not the shootout goal.", 'overtime', m('nhl', 'team_total'))).toMatchObject({ value: 'included' });
    expect(readRule("A team's runs total counts extra innings.", 'overtime', m('mlb', 'team_total'))).toMatchObject({ value: 'included' });
    const but = "For fans: a fourth-quarter spread is settled on the fourth quarter alone, overtime not counted, but a team's points total includes overtime.";
    expect(readRule(but, 'overtime', m('wnba', 'team_total'))).toMatchObject({ value: 'included', evidence: "a team's points total includes overtime" });
    expect(readRule(but, 'overtime', m('wnba', 'spread', 'quarter:4'))).toMatchObject({ value: 'excluded' });
    const semi = "Other markets: second-half spreads include overtime; a team total counts the team's overtime points.";
    expect(readRule(semi, 'overtime', m('nfl', 'team_total'))).toMatchObject({ value: 'included', evidence: "a team total counts the team's overtime points" });
    // ", but team totals ..." (no owner's possessive) still takes the period of the clause before.
    expect(readRule('Fourth-quarter spreads exclude overtime, but team totals include it.', 'overtime', m('nba', 'team_total'))).toEqual({ value: 'unknown', why: 'silent' });
  });
  it('"this applies equally to a team\'s goals" adds markets to the statement before it, as "this also applies to" does, and restricts nothing', () => {
    const text = "Ice hockey: all bets refer to regulation time, 60 minutes, without overtime or penalty shots; this applies equally to a team's goals.";
    expect(readRule(text, 'overtime', m('nhl', 'total'))).toMatchObject({ value: 'excluded' });
    expect(readRule('Totals include overtime; this applies to the NBA as well.', 'overtime', m('nhl', 'total'))).toMatchObject({ value: 'included' });
    // "this applies only to ..." still restricts.
    expect(readRule('Totals include overtime; this applies only to the NBA.', 'overtime', m('nhl', 'total'))).toEqual({ value: 'unknown', why: 'silent' });
  });
  it('"all ice hockey markets, player statistics included, are settled on regular time": markets said to be included in all of a sport\'s markets are among them, not the clause\'s scope', () => {
    const text = 'Ice hockey: all ice hockey markets, player statistics included, are settled on regular time (60 minutes).';
    expect(readRule(text, 'overtime', m('nhl', 'moneyline'))).toMatchObject({ value: 'excluded' });
    expect(readRule(text, 'overtime', m('nhl', 'player_prop'))).toMatchObject({ value: 'excluded' });
    // Player statistics named with no "all" before them are the clause's scope.
    expect(readRule('Ice hockey: player statistics are settled on regular time (60 minutes).', 'overtime', m('nhl', 'moneyline'))).toEqual({ value: 'unknown', why: 'silent' });
  });
  it('"is graded a loss" (with no "as") is a loss a case is graded as', () => {
    expect(readRule('In our pick contest, a player who does not play is graded a loss for every pick on her.', 'non_participation', m('wnba', 'player_prop'))).toMatchObject({ value: 'loses' });
    expect(readRule('If the game ends in a tie, every pick on it is graded a loss.', 'tie', m('nfl', 'moneyline'))).toMatchObject({ value: 'loses' });
    expect(readRule('A player who does not play is graded later.', 'non_participation', m('wnba', 'player_prop'))).toEqual({ value: 'unknown', why: 'silent' });
  });
  it('"a first-half moneyline that is level at halftime is refunded": a score level at halftime is a tie', () => {
    expect(readRule('For bettors: a first-half moneyline that is level at halftime is refunded.', 'tie', m('wnba', 'moneyline', 'half:1'))).toMatchObject({ value: 'void' });
    // A level named at no moment of the game is no tie.
    expect(readRule('For bettors: a first-half moneyline placed at a level price is refunded on request.', 'tie', m('wnba', 'moneyline', 'half:1'))).toEqual({ value: 'unknown', why: 'silent' });
  });
  it('"if the game does not begin, all markets resolve to a fair price": a game that never starts is a cancelled game', () => {
    const text = 'If the game does not begin (signalled by the opening tip), all markets will resolve to a fair price in accordance with the rules.';
    expect(readRule(text, 'cancellation', m('nba', 'player_prop'))).toMatchObject({ value: 'fair_price' });
    expect(readRule('If the match never starts, bets are void.', 'cancellation', m('nhl', 'moneyline'))).toMatchObject({ value: 'void' });
    // A start missed on a day or within a window is a delay, not a game that never starts.
    expect(readRule("Hockey: bets are void if the match doesn't start on the scheduled day.", 'cancellation', m('nhl', 'player_prop'))).toEqual({ value: 'unknown', why: 'silent' });
    expect(readRule('If a game does not start within 12 hours of its scheduled start, all wagers on it are void.', 'cancellation', m('nba', 'player_prop'))).toEqual({ value: 'unknown', why: 'silent' });
    // A player who does not start is no game that does not.
    expect(readRule('If the listed pitcher does not start, the bet is void.', 'cancellation', m('mlb', 'player_prop'))).toEqual({ value: 'unknown', why: 'silent' });
  });
});
describe('the twenty-eighth blind batch\'s wrong values (sentences written for these tests)', () => {
  it('"the spread bet on NO -3": "NO" in capitals with a line or score right after it is a name, not a denial', () => {
    expect(readRule('Bettor\'s note: the spread bet on NO -3 is settled on the final result with overtime.', 'overtime', m('nfl', 'spread'))).toMatchObject({ value: 'included' });
    expect(readRule('Projection: WAS 20.5 - NO 23.5. The full-game total on NO +2.5 counts overtime points.', 'overtime', m('nfl', 'total'))).toMatchObject({ value: 'included' });
    // "No" as a word, and "NO" in capitals with no number after it, still deny.
    expect(readRule('No overtime counts for the spread.', 'overtime', m('nfl', 'spread'))).toMatchObject({ value: 'excluded' });
    expect(readRule('Overtime: NO.', 'overtime', m('nfl', 'spread'))).toMatchObject({ value: 'excluded' });
  });
  it('"the Devils\' 3.5 counts regulation goals only": regulation goals, points or runs "only" leave overtime out', () => {
    const text = 'These hockey lines are settled on the final score with overtime. Team totals are where to read the fine print: the home side\'s 2.5 counts regulation goals only.';
    expect(readRule(text, 'overtime', m('nhl', 'team_total'))).toMatchObject({ value: 'excluded', evidence: 'the home side\'s 2.5 counts regulation goals only' });
    expect(readRule(text, 'overtime', m('nhl', 'moneyline'))).toMatchObject({ value: 'included' });
    expect(readRule('Quarter totals count regulation points only.', 'overtime', m('nba', 'total', 'quarter:4'))).toMatchObject({ value: 'excluded' });
    // Regulation goals "and overtime" are no "only" reading.
    expect(readRule('The total counts regulation goals and overtime goals.', 'overtime', m('nhl', 'total'))).not.toMatchObject({ value: 'excluded' });
  });
});
describe('the twenty-eighth blind batch\'s silent row read known (sentences written for these tests)', () => {
  it('"Settlement typically uses the regulation second-half score only; overtime is excluded ...": a hedged clause stating a value without naming overtime claims its scope as one naming it does', () => {
    const text = 'Settlement typically uses the regulation second-half score only; overtime is excluded unless the contract says otherwise.';
    expect(readRule(text, 'overtime', m('nba', 'moneyline', 'half:2'))).toMatchObject({ value: 'unknown', why: 'hedged' });
    // Unhedged, the same clause states the value; and a clause naming no value still claims nothing.
    expect(readRule('Settlement uses the regulation second-half score only.', 'overtime', m('nba', 'moneyline', 'half:2'))).toMatchObject({ value: 'excluded' });
    expect(readRule('Settlement typically takes a few minutes; overtime is excluded for second-half lines.', 'overtime', m('nba', 'moneyline', 'half:2'))).toMatchObject({ value: 'excluded' });
  });
});
describe('stated values of the twenty-eighth blind batch read unknown (sentences written for these tests)', () => {
  it('"is thrown out for everyone": a game landing on the spread that is thrown out is void', () => {
    expect(readRule('Picks are against the spread; a game that lands exactly on the spread is thrown out and the week is scored on the rest.', 'push', m('nfl', 'spread'))).toMatchObject({ value: 'void' });
  });
  it('"the bet is annulled", a batter who "does not come to the plate even once": a player who never bats, and an annulled bet, are void', () => {
    expect(readRule('If the hitter does not come to the plate even once, the bet is void.', 'non_participation', m('mlb', 'player_prop'))).toMatchObject({ value: 'void' });
    expect(readRule('A player who does not play has the bet annulled and the money returned.', 'non_participation', m('mlb', 'player_prop'))).toMatchObject({ value: 'void' });
    // A batter who does not come to the plate "again" in a game cut short is no player who never took part.
    expect(readRule('If a player does not come to the plate again after the game is stopped, open markets are void.', 'non_participation', m('mlb', 'player_prop'))).toEqual({ value: 'unknown', why: 'silent' });
  });
  it('"the question is thrown out for everyone": a prop whose player is inactive, thrown out, is void', () => {
    expect(readRule('If the named player is inactive, the prop pick is thrown out for every entry.', 'non_participation', m('nfl', 'player_prop'))).toMatchObject({ value: 'void' });
    // A player thrown out of the game is ejected, not a bet thrown out.
    expect(readRule('A player who is thrown out of the game still counts for his stats.', 'non_participation', m('nfl', 'player_prop'))).toEqual({ value: 'unknown', why: 'silent' });
  });
  it('"every selection on it is scored as incorrect": a tied game scored as incorrect loses', () => {
    expect(readRule('A game that ends in a tie counts for nobody: every pick on it is scored as incorrect.', 'tie', m('nfl', 'moneyline'))).toMatchObject({ value: 'loses' });
    expect(readRule('Tied games are marked incorrect for every entry.', 'tie', m('nfl', 'moneyline'))).toMatchObject({ value: 'loses' });
  });
});
describe('stated values of the twenty-fifth to twenty-eighth blind batches left unknown by round 40 (sentences written for these tests)', () => {
  it('"a win in overtime counts as a win": a win in overtime is the money line\'s win, overtime included', () => {
    expect(readRule('Pick the winner of the late game; a win in overtime or the shootout counts as a win.', 'overtime', m('nhl', 'moneyline'))).toMatchObject({ value: 'included' });
    expect(readRule('Wins in extra innings count as wins.', 'overtime', m('mlb', 'moneyline'))).toMatchObject({ value: 'included' });
    // Said through a win, it decides no total beside the money line.
    expect(readRule('A win in overtime counts as a win.', 'overtime', m('nhl', 'total'))).toEqual({ value: 'unknown', why: 'silent' });
    // A game classed as a tie after overtime still says nothing of overtime.
    expect(readRule('If a shootout follows five scoreless minutes of overtime, the game counts as a tie.', 'overtime', m('nhl', 'moneyline'))).toEqual({ value: 'unknown', why: 'silent' });
  });
  it('"as for the team totals": a market the statement holds for as well is added to the one the clause speaks of', () => {
    const text = 'Game total (Giants v Dodgers 8.5): nine innings only, as for the team totals; extra innings are not counted.';
    expect(readRule(text, 'overtime', m('mlb', 'total'))).toMatchObject({ value: 'excluded' });
    expect(readRule(text, 'overtime', m('mlb', 'team_total'))).toMatchObject({ value: 'excluded' });
    expect(readRule(text, 'overtime', m('mlb', 'moneyline'))).toEqual({ value: 'unknown', why: 'silent' });
    expect(readRule('Run line: extra innings count, the same as for the moneyline.', 'overtime', m('mlb', 'moneyline'))).toMatchObject({ value: 'included' });
    // "As for" opening a clause names its subject, and only it.
    expect(readRule('As for team totals, extra innings count.', 'overtime', m('mlb', 'team_total'))).toMatchObject({ value: 'included' });
    expect(readRule('As for team totals, extra innings count.', 'overtime', m('mlb', 'total'))).toEqual({ value: 'unknown', why: 'silent' });
    // With no market before it, the statement holds for the market named that way, not for every market.
    expect(readRule('Basketball rules. Overtime counts, as with the moneyline.', 'overtime', m('nba', 'moneyline'))).toMatchObject({ value: 'included' });
    expect(readRule('Basketball rules. Overtime counts, as with the moneyline.', 'overtime', m('nba', 'total'))).toEqual({ value: 'unknown', why: 'silent' });
  });
  it('"It does not count for bets on the fourth quarter" after a sentence opening with overtime: "it" is overtime', () => {
    expect(readRule('For betting: the overtime counts for the match winner and the total. It does not count for bets on the fourth quarter.', 'overtime', m('nba', 'total', 'quarter:4'))).toMatchObject({ value: 'excluded' });
    expect(readRule('Overtime counts for full-game bets. It does not count for fourth-quarter bets.', 'overtime', m('nba', 'spread', 'quarter:4'))).toMatchObject({ value: 'excluded' });
    // After a sentence whose subject is a market, "it" may be that market: nothing is read.
    expect(readRule('Full-game bets include overtime. It does not count for bets on the fourth quarter.', 'overtime', m('nba', 'total', 'quarter:4'))).toEqual({ value: 'unknown', why: 'silent' });
    // Nor across a sentence on something else.
    expect(readRule('Overtime counts for the full game. The app is free. It does not count for bets on the fourth quarter.', 'overtime', m('nba', 'total', 'quarter:4'))).toEqual({ value: 'unknown', why: 'silent' });
  });
  it('"all players listed are treated as runners": a listed player who does not play is a runner, the bet stands and loses', () => {
    expect(readRule('All players listed in the squad are treated as runners.', 'non_participation', m('nfl', 'player_prop'))).toMatchObject({ value: 'loses' });
    expect(readRule('Anytime scorer: every offered player counts as a runner.', 'non_participation', m('nhl', 'player_prop'))).toMatchObject({ value: 'loses' });
    expect(readRule('All offered players are considered runners.', 'non_participation', m('nhl', 'player_prop'))).toMatchObject({ value: 'loses' });
    // A non-runner is the opposite, and says nothing of a bet standing.
    expect(readRule('In multiples the selection is treated as a non-runner.', 'non_participation', m('nfl', 'player_prop'))).toEqual({ value: 'unknown', why: 'silent' });
    expect(readRule('Players who do not take part are treated as non-runners.', 'non_participation', m('nfl', 'player_prop'))).toMatchObject({ value: 'void' });
  });
  it('a contract that resolves one way past a whole number "and otherwise" the other way: the line itself loses', () => {
    expect(readRule('This market resolves to "Liberty" if the Liberty win by more than 4 points; otherwise it resolves to "Aces".', 'push', m('wnba', 'spread'))).toMatchObject({ value: 'loses' });
    expect(readRule('Threshold 220 resolves as HOME if total points in the game surpass 220, or AWAY otherwise.', 'push', m('nba', 'total'))).toMatchObject({ value: 'loses' });
    // A number that cannot be landed on, a comparison that takes the number in, or no "otherwise": nothing said of the line.
    expect(readRule('Resolves "Over" if the combined score is greater than 160.5, otherwise "Under".', 'push', m('nba', 'total'))).toEqual({ value: 'unknown', why: 'silent' });
    expect(readRule('Resolves Yes if the Bills win by 4 or more points, otherwise No.', 'push', m('nfl', 'spread'))).toEqual({ value: 'unknown', why: 'silent' });
    expect(readRule('The market resolves to the Chiefs if they win by more than 3 points, and to the Bengals if they lose by fewer than 3.', 'push', m('nfl', 'spread'))).toEqual({ value: 'unknown', why: 'silent' });
    // The line's own rule, stated beside it, outranks what the resolution implies.
    expect(readRule('This market resolves to "49ers" if the 49ers win by more than 7 points; otherwise "Cardinals". If the result lands exactly on the line, the market resolves 50-50 and pushes are refunded.', 'push', m('nfl', 'spread'))).toMatchObject({ value: 'void' });
  });
  it('a bet "won in regulation, in overtime or in the shootout": the money line counts overtime', () => {
    expect(readRule('Moneyline: your team just has to win the contest, and it can be won in regulation, in overtime or in the shootout.', 'overtime', m('nhl', 'moneyline'))).toMatchObject({ value: 'included' });
    expect(readRule('Games won in regulation or in overtime both count as wins for the money line.', 'overtime', m('nhl', 'moneyline'))).toMatchObject({ value: 'included' });
    // Said through a win, it decides no total.
    expect(readRule('The moneyline can be won in regulation, in overtime or in the shootout.', 'overtime', m('nhl', 'total'))).toEqual({ value: 'unknown', why: 'silent' });
  });
  it('a total on "the points scored during regular time" leaves overtime out', () => {
    expect(readRule('Over/Under: whether the total points scored during regular time are over or under the line.', 'overtime', m('nba', 'total'))).toMatchObject({ value: 'excluded' });
    // Regular time with overtime added is not regular time alone.
    expect(readRule('Goals scored in regulation time and overtime count for the total.', 'overtime', m('nhl', 'total'))).toMatchObject({ value: 'included' });
  });
  it('a team or the teams that "score exactly" the number land on the line: a push', () => {
    expect(readRule('A team total of 3 is settled on regulation goals, and if the team scores exactly 3 the bet is returned.', 'push', m('nhl', 'team_total'))).toMatchObject({ value: 'void' });
    expect(readRule('If the two teams score exactly 44 points between them, all bets are refunded.', 'push', m('nfl', 'total'))).toMatchObject({ value: 'void' });
  });
  it('a contract\'s answers "Yes above the threshold, ..., and No if the player is inactive": the absent player\'s contract loses', () => {
    expect(readRule('Player props: resolve Yes above the stated threshold, No at or below it, and No if the player is inactive or does not take the court.', 'non_participation', m('nba', 'player_prop'))).toMatchObject({ value: 'loses' });
    expect(readRule('The contract settles Yes if he records a point, and No when the player does not dress.', 'non_participation', m('nhl', 'player_prop'))).toMatchObject({ value: 'loses' });
  });
  it('"the shootout winner\'s extra goal goes into the final score": the shootout counts', () => {
    expect(readRule('The shootout winner\'s extra goal goes into the final score used to settle totals.', 'overtime', m('nhl', 'total'))).toMatchObject({ value: 'included' });
    expect(readRule('The winning side\'s extra goal goes into the total.', 'overtime', m('nhl', 'total'))).toMatchObject({ value: 'included' });
    // A goal going anywhere else says nothing of settlement.
    expect(readRule('The winning team\'s goal goes into the history books.', 'overtime', m('nhl', 'total'))).toEqual({ value: 'unknown', why: 'silent' });
  });
});
describe('the twenty-ninth blind batch\'s wrong values (sentences written for these tests)', () => {
  it('"the pick neither advances you as a win nor costs a life as a loss": a value word in the member after "nor" is denied', () => {
    // The whole "neither ... as a win nor ... as a loss" is void since round 47 (a tie that is neither a win nor a
    // loss); the loss in the member after "nor" is still denied, not read.
    expect(readRule('Survivor ties: if the game ends tied, the pick neither moves you on as a win nor costs you a life as a loss.', 'tie', m('nfl', 'moneyline'))).toMatchObject({ value: 'void' });
    expect(readRule('A tied game neither counts toward your record nor is graded as a loss.', 'tie', m('nfl', 'moneyline'))).toEqual({ value: 'unknown', why: 'silent' });
    // With no "neither ... nor" the value is read as before.
    expect(readRule('If the game ends tied, the pick costs you a life as a loss.', 'tie', m('nfl', 'moneyline'))).toMatchObject({ value: 'loses' });
    expect(readRule('If the game ends tied, the pick does not advance you, and it costs you a life as a loss.', 'tie', m('nfl', 'moneyline'))).toMatchObject({ value: 'loses' });
    // A clause of its own after the member ("and your stake is refunded") is not in it.
    expect(readRule('A push: the wager is neither won nor lost, and your stake is refunded.', 'push', m('nfl', 'spread'))).toMatchObject({ value: 'void' });
  });
  it('"Player does not play: the sportsbook voids the bet; the Kalshi contract resolves No": every clause after a label\'s colon, up to the sentence end, speaks of the label\'s case', () => {
    const text = 'Comparison. Player does not play: the sportsbook voids the bet; the exchange contract resolves No.';
    expect(readRule(text, 'non_participation', m('nba', 'player_prop'))).toMatchObject({ value: 'unknown', why: 'contradiction' });
    expect(readRule('Player does not play: the bet is void; stakes are returned to the account.', 'non_participation', m('nba', 'player_prop'))).toMatchObject({ value: 'void' });
    // A label that states a value of its own is no heading; a clause after a semicolon in a sentence with no label is read as before.
    expect(readRule('If the player does not play the bet is void; the exchange contract resolves No.', 'non_participation', m('nba', 'player_prop'))).toMatchObject({ value: 'void' });
  });
});
describe('stated values of the twenty-ninth blind batch read unknown (sentences written for these tests)', () => {
  it('"is dropped from the week", "is removed from that week", "is thrown out of the round": a pool game taken out of the week\'s scoring is void', () => {
    expect(readRule('A game that ends tied is dropped from the week, and the week is scored on the other games.', 'tie', m('nfl', 'moneyline'))).toMatchObject({ value: 'void' });
    expect(readRule('A game that finishes exactly on the spread is removed from that week for everybody.', 'push', m('nfl', 'spread'))).toMatchObject({ value: 'void' });
    expect(readRule('The first-five pick: if the score is tied after five innings, that pick is thrown out of the round.', 'tie', m('mlb', 'moneyline', 'half:1'))).toMatchObject({ value: 'void' });
    // A week named with no game taken out of it states nothing.
    expect(readRule('A game that ends tied is scored at the end of the week.', 'tie', m('nfl', 'moneyline'))).toEqual({ value: 'unknown', why: 'silent' });
  });
  it('"every Will X win? contract settles at $0": a price of $0 is zero, and a question quoted as a title inside a sentence does not end it', () => {
    expect(readRule('A tie is not a win: every Will X win? contract settles at $0.', 'tie', m('nfl', 'moneyline'))).toMatchObject({ value: 'loses' });
    expect(readRule('If the game ends in a tie, the contract settles at $0.00.', 'tie', m('nfl', 'moneyline'))).toMatchObject({ value: 'loses' });
    // A price above zero is no zero, and a question followed by a sentence of its own still ends.
    expect(readRule('If the game ends in a tie, the contract settles at $0.40.', 'tie', m('nfl', 'moneyline'))).toEqual({ value: 'unknown', why: 'silent' });
    expect(sentences('Does a tie count? No. Ties are void.')).toEqual(['No.', 'Ties are void.']);
  });
  it('"a straight-up game that ends tied is a miss for everybody": a tie that is a miss loses', () => {
    expect(readRule('Ties: a game that ends tied is a miss for everybody, whichever side you took.', 'tie', m('nfl', 'moneyline'))).toMatchObject({ value: 'loses' });
    expect(readRule('A tied game counts as a miss on every card.', 'tie', m('nfl', 'moneyline'))).toMatchObject({ value: 'loses' });
  });
  it('"if a betting event does not take place ..., your bet is cancelled": a bet cancelled for a game not played is void', () => {
    expect(readRule('If a betting event does not take place as planned, for any reason, your bet is cancelled.', 'cancellation', m('nba', 'player_prop'))).toMatchObject({ value: 'void' });
    // A bet builder's "the whole bet is cancelled" is a combination's, not a single bet's.
    expect(readRule('If the player you picked does not take part in the game, the whole bet is cancelled.', 'cancellation', m('nhl', 'player_prop'))).toEqual({ value: 'unknown', why: 'silent' });
    expect(readRule('Bet builder terms. If one pick in a Create a bet bet is cancelled, the whole Create a bet bet is cancelled: for example, if the player you chose does not take part in the match, the whole bet is cancelled, whatever the other picks did.', 'cancellation', m('nhl', 'player_prop'))).toEqual({ value: 'unknown', why: 'silent' });
  });
  it('"a game won in extra innings counts as a win", "is a win", "a game decided in extra innings is scored on its final result": extra innings count', () => {
    expect(readRule('Pick a team each week. A game won in extra innings counts as a win like any other.', 'overtime', m('mlb', 'moneyline'))).toMatchObject({ value: 'included' });
    expect(readRule('Wins and losses are the official results: a game won in extra innings is a win.', 'overtime', m('mlb', 'moneyline'))).toMatchObject({ value: 'included' });
    expect(readRule('A game decided in extra innings is scored on its final result.', 'overtime', m('mlb', 'moneyline'))).toMatchObject({ value: 'included' });
    // A game won in extra innings named with no win it counts as states nothing.
    expect(readRule('A game won in extra innings is shown with an asterisk.', 'overtime', m('mlb', 'moneyline'))).toEqual({ value: 'unknown', why: 'silent' });
  });
  it('"cards are marked on regulation time": a pick card marked on regulation leaves overtime out', () => {
    expect(readRule('Cards are marked on regulation time: a team that wins in overtime is not a winner on your card.', 'overtime', m('nhl', 'moneyline'))).toMatchObject({ value: 'excluded' });
    // A card marked with no basis says nothing of overtime.
    expect(readRule('Cards are marked on Sunday evening.', 'overtime', m('nhl', 'moneyline'))).toEqual({ value: 'unknown', why: 'silent' });
  });
  it('"the extra periods count as part of the second half, but not as part of the fourth period": a basketball fourth period is the fourth quarter', () => {
    const text = 'Note for members: the extra periods count as part of the second half, but not as part of the fourth period (fourth-period total 40.5).';
    expect(readRule(text, 'overtime', m('wnba', 'total', 'quarter:4'))).toMatchObject({ value: 'excluded' });
    expect(readRule(text, 'overtime', m('wnba', 'spread', 'half:2'))).toMatchObject({ value: 'included' });
    expect(readRule('Overtime counts for the 4th period.', 'overtime', m('nba', 'total', 'half:2'))).toEqual({ value: 'unknown', why: 'silent' });
  });
  it('"you receive half of your assigned confidence points": a tie worth half the points a pick earns is a half payout, not a bet on a half', () => {
    expect(readRule('In the event a game ends in a tie, you receive half of your assigned confidence points for that game.', 'tie', m('nfl', 'moneyline'))).toMatchObject({ value: 'half_payout' });
    expect(readRule('If a game ends in a tie, each pick on it earns half of the weekly points.', 'tie', m('nfl', 'moneyline'))).toMatchObject({ value: 'half_payout' });
    // "the second half" is still the half.
    expect(readRule('If the second half ends in a tie, the bet is void.', 'tie', m('nfl', 'moneyline'))).toEqual({ value: 'unknown', why: 'silent' });
  });
  it('"if a spread is a whole number, ... neither side wins: the bet is voided": the case of a whole-number line is its push', () => {
    expect(readRule('If a spread is a whole number, say three points, the game can end on a three-point difference and neither side wins: the bet is voided and the money wagered is returned.', 'push', m('wnba', 'spread'))).toMatchObject({ value: 'void' });
    // A whole-number line named with no value states nothing.
    expect(readRule('If the spread is a whole number, the bet can be placed at any time.', 'push', m('wnba', 'spread'))).toEqual({ value: 'unknown', why: 'silent' });
  });
});

describe('the thirty-first blind batch\'s wrong value and silent row read known (sentences written for these tests)', () => {
  it('"you score zero for the week: nothing gained, nothing lost" on a landed spread is neither a win nor a loss: void', () => {
    expect(readRule('Should the favorite win by exactly the line, the pick scores zero: nothing gained, nothing lost.', 'push', m('nfl', 'spread'))).toMatchObject({ value: 'void' });
    expect(readRule('A total that lands exactly on the number is nothing won, nothing lost.', 'push', m('nba', 'total'))).toMatchObject({ value: 'void' });
    // "lost" alone still loses.
    expect(readRule('A pick that lands exactly on the spread is lost.', 'push', m('nfl', 'spread'))).toMatchObject({ value: 'loses' });
  });
  it('"it is most common to pay the final score, overtime included" is a hedge, as "it is common" is: no value', () => {
    expect(readRule('For the last square it is most common to pay on the final score, overtime included.', 'overtime', m('nfl', 'total'))).toMatchObject({ value: 'unknown', why: 'hedged' });
    expect(readRule('Settling on the final score, overtime included, is more common than settling at the end of regulation.', 'overtime', m('nfl', 'spread'))).toMatchObject({ value: 'unknown', why: 'hedged' });
    // Stated plainly, it is read.
    expect(readRule('The last square is paid on the final score, overtime included.', 'overtime', m('nfl', 'total'))).toMatchObject({ value: 'included' });
  });
});

describe('stated values of the thirty-first blind batch read unknown (sentences written for these tests)', () => {
  it('"pick a player over or under his line" names a player\'s line, not a game total', () => {
    const text = 'Weekly pick game: take a player over or under his rushing line; any yards in overtime count.';
    expect(readRule(text, 'overtime', m('nfl', 'player_prop'))).toMatchObject({ value: 'included' });
    expect(readRule(text, 'overtime', m('nfl', 'total'))).toEqual({ value: 'unknown', why: 'silent' });
  });
  it('a colon between digits writes a score or a time, not a label: "the 3:2 after overtime" stays one clause', () => {
    expect(clauses('The books settled the winner on the 3:2 after overtime.').map((c) => c.text)).toEqual(['The books settled the winner on the 3:2 after overtime']);
    expect(clauses('Kick-off at 8:30 p.m.: bets stand.').map((c) => c.kind)).toEqual(['first', 'colon']);
  });
  it('"the books settled the winner on the 3:2 after both overtimes": a settlement on the score after overtime includes it', () => {
    expect(readRule('The books settled the winner on the 3:2 after both overtimes.', 'overtime', m('nhl', 'moneyline'))).toMatchObject({ value: 'included' });
    expect(readRule('Every sportsbook graded the spread on the final 101-99 after all the overtimes.', 'overtime', m('nba', 'spread'))).toMatchObject({ value: 'included' });
  });
  it('"had he not taken the court, his props would have been void": a player who has not taken the court (the field, the ice) does not play', () => {
    expect(readRule('Had the forward not taken the court at all, every prop on him would have been voided.', 'non_participation', m('nba', 'player_prop'))).toMatchObject({ value: 'void' });
    expect(readRule('A quarterback who has not taken the field by kickoff has his props refunded.', 'non_participation', m('nfl', 'player_prop'))).toMatchObject({ value: 'void' });
  });
  it('"a game likely to go long" describes the game, no hedge; "is likely to count" still hedges', () => {
    expect(readRule('Overtime points count for props in a game likely to go long, as in any other game.', 'overtime', m('nba', 'player_prop'))).toMatchObject({ value: 'included' });
    expect(readRule('Points scored in overtime count toward your entry like any others: that is the reason to stack matchups likely to go long.', 'overtime', m('nba', 'player_prop'))).toMatchObject({ value: 'included' });
    expect(readRule('Points scored in overtime are likely to count toward your entry.', 'overtime', m('nba', 'player_prop'))).toMatchObject({ value: 'unknown', why: 'hedged' });
  });
  it('a contract\'s answers listed case by case ("Yes above the line, No at or below it, No if the player is out") open each "No if" case', () => {
    expect(readRule('Rebound contracts: Yes over the number, No under it, No if the player is inactive.', 'non_participation', m('nba', 'player_prop'))).toMatchObject({ value: 'loses' });
    expect(readRule('Rebound contracts: Yes over the number, No when the player does not play.', 'non_participation', m('nba', 'player_prop'))).toMatchObject({ value: 'loses' });
  });
});

describe('the thirtieth blind batch\'s wrong value (sentences written for these tests)', () => {
  it('a result "turned a loss into a push": what the result was before it became a push is no value of the push', () => {
    expect(readRule('A late field goal turned a loss into a push for anyone holding 44.', 'push', m('nfl', 'total'))).toEqual({ value: 'unknown', why: 'silent' });
    expect(readRule('At 7, a touchdown in the last minute turns a win or a loss into a push.', 'push', m('nfl', 'spread'))).toEqual({ value: 'unknown', why: 'silent' });
    // A push that is itself turned into a loss, or graded one, still loses.
    expect(readRule('If the total lands on the number, the bet is turned into a loss.', 'push', m('nfl', 'total'))).toMatchObject({ value: 'loses' });
    expect(readRule('A total that lands exactly on the line is graded as a loss.', 'push', m('nfl', 'total'))).toMatchObject({ value: 'loses' });
  });
});
describe('the thirtieth blind batch\'s silent row read known (sentences written for these tests)', () => {
  it('a standings tiebreaker of "more wins without overtime" ranks teams by a count of wins: no rule of how a pick or bet settles', () => {
    expect(readRule('Both teams finished level on points, but Boston holds the tiebreaker with more wins without overtime.', 'overtime', m('nhl', 'moneyline'))).toEqual({ value: 'unknown', why: 'silent' });
    expect(readRule('Ties in the standings go to the club with the most wins without overtime or shootouts.', 'overtime', m('nhl', 'moneyline'))).toEqual({ value: 'unknown', why: 'silent' });
    // Wins without overtime that are what a pick counts still leave overtime out.
    expect(readRule('Only wins without overtime count for your picks.', 'overtime', m('nhl', 'moneyline'))).toMatchObject({ value: 'excluded' });
  });
});
describe('stated values of the thirtieth blind batch read unknown (sentences written for these tests)', () => {
  it('a pool\'s "side contest" or "side game" (one played beside the main contest) names no sides market', () => {
    expect(readRule('New daily side contest: pick a player over or under her points line. A player ruled out before tip-off has that pick voided.', 'non_participation', m('wnba', 'player_prop'))).toMatchObject({ value: 'void' });
    expect(readRule('New side game: pick a player\'s points over or under a line. Points scored in overtime count.', 'overtime', m('wnba', 'player_prop'))).toMatchObject({ value: 'included' });
    // Bets on the sides are still the sides market.
    expect(readRule('Side bets: overtime counts.', 'overtime', m('nfl', 'player_prop'))).toEqual({ value: 'unknown', why: 'silent' });
  });
});
describe('stated values of the thirtieth blind batch read unknown, continued (sentences written for these tests)', () => {
  it('a player who does not play makes the pick "a loss", or his day "is lost": the pick loses', () => {
    expect(readRule('If your player is scratched and does not dress, the pick is a loss.', 'non_participation', m('nhl', 'player_prop'))).toMatchObject({ value: 'loses' });
    expect(readRule('A player you pick who does not play that day scores nothing, and the day is lost.', 'non_participation', m('wnba', 'player_prop'))).toMatchObject({ value: 'loses' });
    // A loss named for another case than the absent player's says nothing of it.
    expect(readRule('A pick on a player who does not play is replaced by the next player on your list; a wrong pick is a loss.', 'non_participation', m('wnba', 'player_prop'))).not.toMatchObject({ value: 'loses' });
  });
});
describe('stated values of the thirtieth blind batch read unknown, an exception and a condition after it (sentences written for these tests)', () => {
  it('"count overtime but not the shootout, and if the player does not come onto the ice, the bet is void": the condition after the exception is a statement of its own', () => {
    const text = 'Player points and goals count overtime but not the shootout, and if the player does not come onto the ice, the bet is settled at odds of 1.00.';
    expect(readRule(text, 'non_participation', m('nhl', 'player_prop'))).toMatchObject({ value: 'void' });
    expect(readRule(text, 'overtime', m('nhl', 'player_prop'))).toMatchObject({ value: 'included' });
    expect(readRule('All bets include overtime except bets on the fourth quarter, and if the player does not play, his props are void.', 'non_participation', m('nba', 'player_prop'))).toMatchObject({ value: 'void' });
    // An exception that lists its cases with "and" is still one exception: each case leaves overtime out.
    expect(readRule('All markets include overtime, but not the fourth quarter and the second half.', 'overtime', m('nba', 'total', 'quarter:4'))).toMatchObject({ value: 'excluded' });
    expect(readRule('All markets include overtime, but not the fourth quarter and the second half.', 'overtime', m('nba', 'total', 'half:2'))).toMatchObject({ value: 'excluded' });
  });
});
describe('stated values of the thirtieth blind batch read unknown, a pick\'s "More or Less" (sentences written for these tests)', () => {
  it('a closing "More or Less" names a pick\'s two selections, not a total; "more or less on the full game", "more or less than" a figure are still a total', () => {
    expect(readRule('Minimum play: a player who does not log a second of ice time has every pick on him scored as void, MORE or LESS.', 'non_participation', m('nhl', 'player_prop'))).toMatchObject({ value: 'void' });
    expect(readRule('For more (+) or less (-) on the full game, the extra goals are valid.', 'overtime', m('nhl', 'player_prop'))).toEqual({ value: 'unknown', why: 'silent' });
    expect(readRule('You bet on whether the total points, overtime included, will be more or less than this number.', 'overtime', m('nba', 'total'))).toMatchObject({ value: 'included' });
    expect(readRule('You bet on whether the total points, overtime included, will be more or less than this number.', 'overtime', m('nba', 'player_prop'))).toEqual({ value: 'unknown', why: 'silent' });
  });
});
describe('stated values of the thirtieth blind batch read unknown, a pick called a prediction (sentences written for these tests)', () => {
  it('a contest\'s "prediction" on a player who does not play "is removed": the pick is voided, as a removed pick is', () => {
    expect(readRule('A pitcher who does not start is a DNP; a DNP prediction is removed and the contest is scored on the rest.', 'non_participation', m('mlb', 'player_prop'))).toMatchObject({ value: 'void' });
    expect(readRule('If a player does not play, his predictions are removed from your contest.', 'non_participation', m('nba', 'player_prop'))).toMatchObject({ value: 'void' });
    // A prediction removed for another reason than the player's absence states nothing of it.
    expect(readRule('A prediction is removed when the line moves before the contest locks.', 'non_participation', m('nba', 'player_prop'))).toEqual({ value: 'unknown', why: 'silent' });
  });
});
describe('stated values of the thirtieth blind batch read unknown, a three-way line listed by its outcomes (sentences written for these tests)', () => {
  it('"where three are offered (1 / draw / 2)" names the three-way line, outside our markets, as "1X2" does', () => {
    const text = 'Winner: where two results are offered, bets include overtime and the shootout; where three are offered (1 / draw / 2), bets are for regular time only.';
    expect(readRule(text, 'overtime', m('nhl', 'moneyline'))).toMatchObject({ value: 'included' });
    expect(readRule('Match result (1 / X / 2) bets are settled on regular time only.', 'overtime', m('nhl', 'moneyline'))).toEqual({ value: 'unknown', why: 'silent' });
    // A plain draw named in a sentence on our markets still speaks of them.
    expect(readRule('Winner: if the game ends in a draw after overtime, bets are void.', 'tie', m('nfl', 'moneyline'))).toMatchObject({ value: 'void' });
  });
});
describe('a refund denied by its subject (sentences written for these tests)', () => {
  it('"nothing is refunded" denies the refund, as "no stakes are refunded" does', () => {
    expect(readRule('If your player does not dress, nothing is refunded.', 'non_participation', m('nhl', 'player_prop'))).toEqual({ value: 'unknown', why: 'silent' });
    expect(readRule('If the game is tied, nothing is returned and the bet loses.', 'tie', m('nfl', 'moneyline'))).toMatchObject({ value: 'loses' });
    // A refund of its own after "nothing else" is still one.
    expect(readRule('If the player does not play, the stake is refunded and nothing else happens.', 'non_participation', m('nhl', 'player_prop'))).toMatchObject({ value: 'void' });
  });
});
describe('the thirty-second blind batch\'s wrong value and silent row read known (sentences written for these tests)', () => {
  it('"quarter with the most points" (the period with the most) names a market of its own, not the quarters: its overtime rule leaves a quarter total alone', () => {
    expect(readRule('Quarter with the most points: all four quarters must be completed, and overtime does not count.', 'overtime', m('wnba', 'total', 'quarter:4'))).toEqual({ value: 'unknown', why: 'silent' });
    expect(readRule('Bets include overtime. Half with the most points: overtime does not count.', 'overtime', m('nba', 'total', 'half:2'))).toMatchObject({ value: 'included' });
    expect(readRule('Period with the most goals: overtime excluded.', 'overtime', m('nhl', 'total', 'full'))).toEqual({ value: 'unknown', why: 'silent' });
    // A quarter total's own rule is still read.
    expect(readRule('4th quarter totals: overtime does not count.', 'overtime', m('wnba', 'total', 'quarter:4'))).toMatchObject({ value: 'excluded' });
  });
  it('"the OT Included betting line" names a line by its label and states nothing of the market\'s overtime', () => {
    expect(readRule('The OT Included betting line makes so much more sense now.', 'overtime', m('nhl', 'total'))).toEqual({ value: 'unknown', why: 'silent' });
    expect(readRule('I always take the overtime excluded line on hockey totals.', 'overtime', m('nhl', 'total'))).toEqual({ value: 'unknown', why: 'silent' });
    // Overtime said to be included in the line is still read.
    expect(readRule('The total goals line includes overtime.', 'overtime', m('nhl', 'total'))).toMatchObject({ value: 'included' });
  });
});
describe('stated values of the thirty-second blind batch read unknown, the game lines named beside another market (sentences written for these tests)', () => {
  it('"game lines and team totals include overtime" speaks of the money line, the spread and the total too, not of team totals alone', () => {
    const text = 'NHL: game lines and team totals include overtime.';
    expect(readRule(text, 'overtime', m('nhl', 'moneyline'))).toMatchObject({ value: 'included' });
    expect(readRule(text, 'overtime', m('nhl', 'total'))).toMatchObject({ value: 'included' });
    expect(readRule(text, 'overtime', m('nhl', 'team_total'))).toMatchObject({ value: 'included' });
    // Still the full game's: a quarter total is not among them, nor a player's line.
    expect(readRule('Game lines and team totals include overtime.', 'overtime', m('nba', 'total', 'quarter:4'))).toEqual({ value: 'unknown', why: 'silent' });
    expect(readRule(text, 'overtime', m('nhl', 'player_prop'))).toEqual({ value: 'unknown', why: 'silent' });
  });
});
describe('stated values of the thirty-second blind batch read unknown, bets accepted for regular time (sentences written for these tests)', () => {
  it('"bets are accepted for the regular playing time" (or "valid for regular time") excludes overtime, as "bets are for regular time" does', () => {
    expect(readRule('Bets are accepted for the regular playing time of the match, unless the rules provide otherwise.', 'overtime', m('nhl', 'moneyline'))).toMatchObject({ value: 'excluded' });
    expect(readRule('All bets are valid for regular time only.', 'overtime', m('nhl', 'total'))).toMatchObject({ value: 'excluded' });
    // Regular time named with overtime includes it.
    expect(readRule('Bets are accepted for the regular playing time and overtime.', 'overtime', m('nhl', 'total'))).toMatchObject({ value: 'included' });
  });
});
describe('the thirty-third blind batch\'s wrong value (sentences written for these tests)', () => {
  it('the final result with a word before "final" ("the official final result") holds for the case of extra innings being needed, over the nine-inning basis before it', () => {
    const text = 'Totals are graded on the official result after 9 innings (8 1/2 if the home team leads); if extra innings are needed to finish the game, wagers are settled on the official final result.';
    expect(readRule(text, 'overtime', m('mlb', 'total'))).toMatchObject({ value: 'included' });
    expect(readRule('If additional innings are needed, run lines are resolved on the actual final score.', 'overtime', m('mlb', 'spread'))).toMatchObject({ value: 'included' });
    // The nine-inning basis alone is still regulation.
    expect(readRule('Totals are graded on the official result after 9 innings (8 1/2 if the home team leads).', 'overtime', m('mlb', 'total'))).toMatchObject({ value: 'excluded' });
  });
});
describe('stated values of the thirty-third blind batch read unknown, the Women\'s NBA (sentences written for these tests)', () => {
  it('"Women\'s NBA" names the WNBA, not the NBA', () => {
    const text = 'Betting on Women\'s NBA games: understanding spreads. Overtime points count for the spread.';
    expect(readRule(text, 'overtime', m('wnba', 'spread'))).toMatchObject({ value: 'included' });
    expect(readRule(text, 'overtime', m('nba', 'spread'))).toEqual({ value: 'unknown', why: 'silent' });
    // The NBA named alone is still the NBA.
    expect(readRule('Betting on NBA games: understanding spreads. Overtime points count for the spread.', 'overtime', m('nba', 'spread'))).toMatchObject({ value: 'included' });
    expect(readRule('Women\'s NBA: overtime points count for the spread.', 'overtime', m('wnba', 'spread'))).toMatchObject({ value: 'included' });
  });
});
describe('stated values of the thirty-third blind batch read unknown, "that\'s why" after a rule (sentences written for these tests)', () => {
  it('"That\'s why books often hang a half point" draws a consequence from the push rule before it and hedges its own claim only, as "that is why" does', () => {
    expect(readRule('If the favourite wins by exactly the spread, the bet is a push and your stake comes back. That\'s why books often hang a half point.', 'push', m('wnba', 'spread'))).toMatchObject({ value: 'void' });
    expect(readRule('Overtime counts for totals; that\'s why totals often go over late.', 'overtime', m('nba', 'total'))).toMatchObject({ value: 'included' });
    // A hedge that refers back still takes the rule back.
    expect(readRule('If the favourite wins by exactly the spread, the bet is a push and your stake comes back. That\'s usually the case.', 'push', m('wnba', 'spread'))).toMatchObject({ value: 'unknown', why: 'hedged' });
  });
});
describe('stated values of the thirty-third blind batch read unknown, one goal to the shootout winner (sentences written for these tests)', () => {
  it('"one goal to the shootout winner" (no verb) credits the winner a goal, as "one goal for the winner" and "the winner is awarded one goal" do', () => {
    expect(readRule('Over/under: combined goals of both teams. Shootout adjustment: one goal to the shootout winner for the over/under count.', 'overtime', m('nhl', 'total'))).toMatchObject({ value: 'included' });
    expect(readRule('Totals: one goal to the team that wins the shootout.', 'overtime', m('nhl', 'total'))).toMatchObject({ value: 'included' });
    // A goal given to no winner is no such credit, and a story's "the league adds one goal to the winner's
    // score" tells how the league scores a shootout, not what bets settle on.
    expect(readRule('Totals: one goal to the over.', 'overtime', m('nhl', 'total'))).toEqual({ value: 'unknown', why: 'silent' });
    expect(readRule('The shootout is a tie-breaking mechanism, and the league adds just one goal to the winner\'s score.', 'overtime', m('nhl', 'total'))).toEqual({ value: 'unknown', why: 'silent' });
  });
});
describe('stated values of the thirty-fourth blind batch read unknown, markets included in all full-game markets (sentences written for these tests)', () => {
  it('"all full-game markets (live betting included)" speaks of every full-game market, live betting among them, as "all markets, X included" does', () => {
    expect(readRule('All full-game markets (live betting included) are settled on the final result, extra innings included.', 'overtime', m('mlb', 'moneyline'))).toMatchObject({ value: 'included' });
    expect(readRule('All full-game markets, in-play betting included, are settled on the final score including overtime.', 'overtime', m('nhl', 'total'))).toMatchObject({ value: 'included' });
    // Live betting named as the subject still speaks of live betting alone.
    expect(readRule('Live betting is settled on the final result, extra innings included.', 'overtime', m('mlb', 'moneyline'))).toEqual({ value: 'unknown', why: 'silent' });
  });
});
describe('stated values of the thirty-fourth blind batch read unknown, a player resolving his props No (sentences written for these tests)', () => {
  it('a player who does not play "resolves his props No" (his markets, to No) loses, as "his props resolve No" does', () => {
    expect(readRule('A player listed inactive or not taking the court resolves all his props No.', 'non_participation', m('nba', 'player_prop'))).toMatchObject({ value: 'loses' });
    expect(readRule('A player who does not take the floor resolves his markets to No.', 'non_participation', m('wnba', 'player_prop'))).toMatchObject({ value: 'loses' });
    // Props resolved No at or below the line, no player missing the game: nothing on non-participation.
    expect(readRule('The exchange resolves all player props No at or below the line.', 'non_participation', m('nba', 'player_prop'))).toEqual({ value: 'unknown', why: 'silent' });
  });
});
describe('stated values of the thirty-fourth blind batch read unknown, a tie that puts a survivor entry out (sentences written for these tests)', () => {
  it('a tie after which "you are out of the pool" or "you are eliminated" loses, as a tie that "counts as a loss" does', () => {
    expect(readRule('If your team loses (or ties), you are out of the pool; if your team wins, you move on.', 'tie', m('nfl', 'moneyline'))).toMatchObject({ value: 'loses' });
    expect(readRule('If your team ties, you are eliminated.', 'tie', m('nfl', 'moneyline'))).toMatchObject({ value: 'loses' });
    // Tied games taken out of the pool are games, not the entry: nothing said of the pick.
    expect(readRule('Tied games are eliminated from the pool.', 'tie', m('nfl', 'moneyline'))).toEqual({ value: 'unknown', why: 'silent' });
  });
});
describe('unknown rows of the twenty-eighth to thirty-second blind batches, a heading\'s market ended after its colon (sentences written for these tests)', () => {
  it('a clause after a heading\'s colon naming another market ends the heading\'s market for the sentences after it', () => {
    const text = 'Daily over/under game: choose a player over or under his rushing line. A player ruled Out counts as a loss for either pick.';
    expect(readRule(text, 'non_participation', m('nfl', 'player_prop'))).toMatchObject({ value: 'loses' });
    // The heading's own market still holds the sentences after a colon that names no other market.
    expect(readRule('Over/under game: pick the over or the under. Overtime does not count.', 'overtime', m('nfl', 'total'))).toMatchObject({ value: 'excluded' });
    expect(readRule('Totals: pick the over or the under. Overtime does not count.', 'overtime', m('nfl', 'player_prop'))).toEqual({ value: 'unknown', why: 'silent' });
  });
});
describe('unknown rows of the twenty-eighth to thirty-second blind batches, a tie that is neither a win nor a loss (sentences written for these tests)', () => {
  it('a tied game that counts "neither as a win nor as a loss" is void, however the pick\'s win and loss are worded', () => {
    expect(readRule('If the game ends in a tie, your pick counts neither as a win nor as a loss.', 'tie', m('nfl', 'moneyline'))).toMatchObject({ value: 'void' });
    expect(readRule('A tied game is neither a win nor a loss for the bettor.', 'tie', m('nfl', 'moneyline'))).toMatchObject({ value: 'void' });
    expect(readRule('Should the game end tied, the entry neither moves on as a win nor drops out as a loss.', 'tie', m('nfl', 'moneyline'))).toMatchObject({ value: 'void' });
    // A denied win alone still states nothing; a loss said of the tie is still read.
    expect(readRule('A tied game is not a win.', 'tie', m('nfl', 'moneyline'))).toEqual({ value: 'unknown', why: 'silent' });
    expect(readRule('A tied game is no win for anyone and counts as a loss.', 'tie', m('nfl', 'moneyline'))).toMatchObject({ value: 'loses' });
  });
});
describe('unknown rows of the twenty-eighth to thirty-second blind batches, a level score (sentences written for these tests)', () => {
  it('"a level score" at the end of the game is a tie', () => {
    expect(readRule('A level score at the final whistle means the pick is neither a win nor a loss.', 'tie', m('nfl', 'moneyline'))).toMatchObject({ value: 'void' });
    expect(readRule('Should the game finish with a level score, money line bets lose.', 'tie', m('nfl', 'moneyline'))).toMatchObject({ value: 'loses' });
    // A level score is no push of a line.
    expect(readRule('Should the game finish with a level score, bets lose.', 'push', m('nfl', 'spread'))).toEqual({ value: 'unknown', why: 'silent' });
  });
});
describe('unknown rows of the twenty-eighth to thirty-second blind batches, a list of examples after a lead-in (sentences written for these tests)', () => {
  it('a label naming the list as examples ("some common examples:") between a lead-in and its list leaves the lead-in\'s value to the items', () => {
    expect(readRule('Wagers are voided for several reasons; some common examples: the match was not played; the venue changed.', 'cancellation', m('mlb', 'player_prop'))).toMatchObject({ value: 'void' });
    expect(readRule('Bets are refunded in a few cases; for example: the player does not take the field.', 'non_participation', m('nfl', 'player_prop'))).toMatchObject({ value: 'void' });
    // The label alone states nothing, and an item naming no topic of the rule takes no value.
    expect(readRule('Wagers are voided for several reasons; some common examples: the venue changed.', 'cancellation', m('mlb', 'player_prop'))).toEqual({ value: 'unknown', why: 'silent' });
  });
});
describe('unknown rows of the twenty-eighth to thirty-second blind batches, a lead-in whose subject is the sentence before (sentences written for these tests)', () => {
  it('"This may happen for a number of reasons: ..." gives its list the value the sentence before stated', () => {
    const text = 'A refunded wager is one whose stake is returned. This can happen for several reasons: the match was not played; the player did not take the field.';
    expect(readRule(text, 'cancellation', m('nba', 'player_prop'))).toMatchObject({ value: 'void' });
    expect(readRule(text, 'non_participation', m('nba', 'player_prop'))).toMatchObject({ value: 'void' });
    // A lead-in of another subject takes nothing from the sentence before.
    expect(readRule('A refunded wager is one whose stake is returned. Promotions can change for several reasons: the match was not played.', 'cancellation', m('nba', 'player_prop'))).toEqual({ value: 'unknown', why: 'silent' });
    // Nor does one after a withdrawn sentence.
    expect(readRule('A wager is usually refunded. This can happen for several reasons: the match was not played.', 'cancellation', m('nba', 'player_prop'))).not.toMatchObject({ value: 'void' });
  });
});
describe('unknown rows of the twenty-eighth to thirty-second blind batches, a pool\'s side bet (sentences written for these tests)', () => {
  it('a pool\'s "side bet" or "side pick" (one, or a nightly, weekly or draft-day one) is a bet beside the contest, not the sides market', () => {
    const text = 'Weekly side bets: Cale Makar over 0.5 points. Points in overtime count; if Makar is a healthy scratch, the side bet is off and stakes are returned.';
    expect(readRule(text, 'overtime', m('nhl', 'player_prop'))).toMatchObject({ value: 'included' });
    expect(readRule(text, 'non_participation', m('nhl', 'player_prop'))).toMatchObject({ value: 'void' });
    expect(readRule('Nightly side pick: one skater to record a point. A skater who does not dress earns nothing and the side pick is a loss.', 'non_participation', m('nhl', 'player_prop'))).toMatchObject({ value: 'loses' });
    // "Side bets" alone still name the sides market.
    const sides = 'Side bets: you take the points or lay them. Overtime is part of it. Half bets are also offered on sides.';
    expect(readRule(sides, 'overtime', m('nfl', 'spread'))).toMatchObject({ value: 'included' });
    expect(readRule(sides, 'overtime', m('nfl', 'spread', 'half:2'))).toEqual({ value: 'unknown', why: 'silent' });
  });
});
describe('the thirty-fifth blind batch\'s wrong values (sentences written for these tests)', () => {
  it('a nine-inning basis followed in the same clause by the case of extra innings, its settlement verb left out, counts them for that case', () => {
    const inClause = 'Run totals are graded on the official result after 9 innings, and if extra innings are needed to complete the game, on the official final result.';
    expect(readRule(inClause, 'overtime', m('mlb', 'total'))).toMatchObject({ value: 'included' });
    const elliptical = 'Totals: graded on the official score after nine innings; if extra innings are required, on the final official score.';
    expect(readRule(elliptical, 'overtime', m('mlb', 'total'))).toMatchObject({ value: 'included' });
    expect(readRule('If additional innings are required, totals are settled on the final score.', 'overtime', m('mlb', 'total'))).toMatchObject({ value: 'included' });
    // The nine-inning basis alone is still regulation.
    expect(readRule('Run totals are graded on the official result after 9 innings.', 'overtime', m('mlb', 'total'))).toMatchObject({ value: 'excluded' });
  });
  it('the result after regular playing time that "prevails" for a league excepted from a rule counting overtime leaves overtime out there', () => {
    const text = 'In North American leagues (the NFL and the NBA, for instance) bets are settled on the result after any overtime. Hockey bets on the NHL are the exception: the result after regular time prevails.';
    expect(readRule(text, 'overtime', m('nhl', 'moneyline'))).toMatchObject({ value: 'excluded' });
    expect(readRule(text, 'overtime', m('nhl', 'total'))).toMatchObject({ value: 'excluded' });
    expect(readRule(text, 'overtime', m('nba', 'total'))).toMatchObject({ value: 'included' });
    expect(readRule('The regulation result prevails for every bet.', 'overtime', m('nhl', 'total'))).toMatchObject({ value: 'excluded' });
    // Regulation named with overtime still counts it.
    expect(readRule('The result after regular time and overtime prevails.', 'overtime', m('nhl', 'total'))).toMatchObject({ value: 'included' });
  });
  it('a season-long fantasy game\'s scoring ("for a fantasy manager ... counts toward weekly totals") settles no market of ours', () => {
    const text = 'For fantasy managers, every overtime point, rebound and assist counts toward weekly totals.';
    expect(readRule(text, 'overtime', m('nba', 'total'))).toEqual({ value: 'unknown', why: 'silent' });
    expect(readRule('In a fantasy league, overtime stats count.', 'overtime', m('nba', 'player_prop'))).toEqual({ value: 'unknown', why: 'silent' });
    // A game total said beside it still reads.
    expect(readRule('Game totals include every overtime point.', 'overtime', m('nba', 'total'))).toMatchObject({ value: 'included' });
  });
});
describe('stated values of the thirty-fifth blind batch read unknown (sentences written for these tests)', () => {
  it('"the scores after overtime" (plural) count overtime, as "the score after overtime" does', () => {
    const text = 'A spread bet is graded on the difference between the scores after overtime, where overtime is played.';
    expect(readRule(text, 'overtime', m('nfl', 'spread'))).toMatchObject({ value: 'included' });
    expect(readRule('The margin is the difference between the final scores after any overtime.', 'overtime', m('nfl', 'spread'))).toMatchObject({ value: 'included' });
  });
  it('a contract\'s tie listed among its outcomes with its price ("Tie 0%") is a separate outcome, as a bare "Tie" item is', () => {
    const text = 'Outcomes: Denver wins the first 5 innings 48%; Houston wins the first 5 innings 41%; Tie 11%.';
    expect(readRule(text, 'tie', m('mlb', 'moneyline', 'half:1'))).toMatchObject({ value: 'separate_outcome' });
    expect(readRule('Outcomes: Denver 55.5%; Houston 40.5%; Tie 4.0%.', 'tie', m('mlb', 'moneyline', 'half:1'))).toMatchObject({ value: 'separate_outcome' });
    // A tie named in a longer item is no outcome of its own.
    expect(readRule('Outcomes: Denver 55%; Houston 40%; Tie games 5 per season.', 'tie', m('mlb', 'moneyline', 'half:1'))).toEqual({ value: 'unknown', why: 'silent' });
  });
  it('a survivor pool\'s participant who picked a team in a tied game and "is eliminated" loses, as "you are eliminated" does', () => {
    expect(readRule('If the game ends in a tie, any participant holding either team is eliminated.', 'tie', m('nfl', 'moneyline'))).toMatchObject({ value: 'loses' });
    expect(readRule('When a game is tied, entrants who picked either side are eliminated.', 'tie', m('nfl', 'moneyline'))).toMatchObject({ value: 'loses' });
    // Without a tie in the clause it is no tie rule.
    expect(readRule('A participant whose team loses is eliminated.', 'tie', m('nfl', 'moneyline'))).toEqual({ value: 'unknown', why: 'silent' });
  });
  it('a pool in which a game can be picked to end in a tie offers the tie as an outcome of its own', () => {
    expect(readRule('Besides either team, you may pick a game to end in a tie, though NFL ties are rare.', 'tie', m('nfl', 'moneyline'))).toMatchObject({ value: 'separate_outcome' });
    expect(readRule('For every game you can pick a tie as well.', 'tie', m('nfl', 'moneyline'))).toMatchObject({ value: 'separate_outcome' });
    // A pool that does not let a tie be picked states no such outcome.
    expect(readRule('You may not pick a tie.', 'tie', m('nfl', 'moneyline'))).toEqual({ value: 'unknown', why: 'silent' });
  });
  it('a nine-inning basis extended by extra innings past the home-team-leading aside ("after 9 innings (8 1/2 if the home team leads) including any extra innings") counts them', () => {
    const text = 'Run line: graded on the official result after 9 innings (8 1/2 if the home team leads) including any needed extra innings.';
    expect(readRule(text, 'overtime', m('mlb', 'spread'))).toMatchObject({ value: 'included' });
    expect(readRule('Totals are settled on the result after nine innings (8.5 innings if the home side is ahead), plus any extra innings.', 'overtime', m('mlb', 'total'))).toMatchObject({ value: 'included' });
    // The aside alone adds nothing: the nine-inning basis is still regulation.
    expect(readRule('Run line: graded on the official result after 9 innings (8 1/2 if the home team leads).', 'overtime', m('mlb', 'spread'))).toMatchObject({ value: 'excluded' });
  });
  it('a colon inside a quoted market title ("a player market such as \'Ja Morant: assists O/U 7.5\' (...): ...") is part of the title, not a label', () => {
    const text = "Consider a player market such as 'Ja Morant: assists O/U 7.5' (Grizzlies v Suns): it resolves Yes above the line, and the whole game, overtime included, is counted.";
    expect(readRule(text, 'overtime', m('nba', 'player_prop'))).toMatchObject({ value: 'included' });
    expect(clauses(text).map((c) => c.kind)).toEqual(['first', 'colon']);
    // A colon outside quotes still labels its clause, and an apostrophe is no quote.
    expect(clauses("Morant's assists: overtime is counted.").map((c) => c.kind)).toEqual(['first', 'colon']);
  });
});
describe('the thirty-sixth blind batch\'s silent row read known (sentences written for these tests)', () => {
  it('"the draw is calculated at the end of regulation" speaks of a market with a draw (a three-way line), not of a two-way money line', () => {
    const text = 'Hockey games can run into overtime and a shootout, so the draw is calculated at the end of regulation time.';
    expect(readRule(text, 'overtime', m('nhl', 'moneyline'))).toEqual({ value: 'unknown', why: 'silent' });
    expect(readRule('Draws are determined on the score after 60 minutes.', 'overtime', m('nhl', 'moneyline'))).toEqual({ value: 'unknown', why: 'silent' });
    // The bets themselves settled at the end of regulation still leave overtime out, and a draw's settlement is still a tie rule.
    expect(readRule('Bets are settled at the end of regulation time.', 'overtime', m('nhl', 'moneyline'))).toMatchObject({ value: 'excluded' });
    expect(readRule('If the game is a draw, the bet is void.', 'tie', m('nfl', 'moneyline'))).toMatchObject({ value: 'void' });
  });
});
describe('stated values of the thirty-sixth blind batch read unknown (sentences written for these tests)', () => {
  it('a pick\'em entry "settled on the remaining picks" when a player does not play voids the pick, as "removed from your entry" does', () => {
    expect(readRule('If the athlete does not play, your entry is settled on the remaining picks.', 'non_participation', m('wnba', 'player_prop'))).toMatchObject({ value: 'void' });
    expect(readRule('A tied pick is handled as if the player did not play, and the lineup is scored on the remaining valid picks.', 'non_participation', m('nba', 'player_prop'))).toMatchObject({ value: 'void' });
    // Without a player missing the game it is no rule on non-participation.
    expect(readRule('If the game is postponed, your entry is settled on the remaining picks.', 'non_participation', m('nba', 'player_prop'))).toEqual({ value: 'unknown', why: 'silent' });
  });
  it('a tipping contest\'s tip on "the result of the game after 60 minutes" leaves overtime out of its money line, and says nothing of a total tipped beside it', () => {
    const text = 'How to play: you tip the result of the game after 60 minutes (1 home, X draw, 2 away) and the number of goals scored.';
    expect(readRule(text, 'overtime', m('nhl', 'moneyline'))).toMatchObject({ value: 'excluded' });
    expect(readRule(text, 'overtime', m('nhl', 'total'))).toEqual({ value: 'unknown', why: 'silent' });
    expect(readRule('Each entrant predicts the exact result of the match after regulation time.', 'overtime', m('nhl', 'moneyline'))).toMatchObject({ value: 'excluded' });
    // The tip on the result after regulation and overtime counts overtime.
    expect(readRule('You tip the result of the game after regulation time and overtime.', 'overtime', m('nhl', 'moneyline'))).toMatchObject({ value: 'included' });
  });
});
describe('unknown rows of older blind batches, round 50 (sentences written for these tests)', () => {
  it('a pool\'s tie for which "half the point value is awarded" (passive) pays half, as "awards half a point" does', () => {
    expect(readRule('If a game ends in a tie, half the configured point value is awarded.', 'tie', m('nfl', 'moneyline'))).toMatchObject({ value: 'half_payout' });
    expect(readRule('When a game is tied, half a point is given for the pick.', 'tie', m('nfl', 'moneyline'))).toMatchObject({ value: 'half_payout' });
    // Half a point added to a line to rule out a tie pays nothing.
    expect(readRule('To rule out a tie, half a point is added to the line.', 'tie', m('nfl', 'moneyline'))).toEqual({ value: 'unknown', why: 'silent' });
  });
});
describe('stated values of the thirty-seventh blind batch read unknown (sentences written for these tests)', () => {
  it('a sport outside the spec listed beside two sports of ours ("baseball, football and soccer games") leaves the statement standing for ours, as a league of ours beside one outside does', () => {
    expect(readRule('Football, hockey and soccer games must be played on the scheduled date; a game that is cancelled is treated as no action.', 'cancellation', m('nfl', 'player_prop'))).toMatchObject({ value: 'void' });
    expect(readRule('Basketball, baseball and rugby matches: a cancelled match is no action.', 'cancellation', m('nba', 'player_prop'))).toMatchObject({ value: 'void' });
    // A sport outside the spec named alone, or one of ours with a qualifier outside it, still blocks the clause.
    expect(readRule('Soccer: a game that is cancelled is treated as no action.', 'cancellation', m('nfl', 'player_prop'))).toEqual({ value: 'unknown', why: 'silent' });
    expect(readRule('College football: a game that is cancelled is treated as no action.', 'cancellation', m('nfl', 'player_prop'))).toEqual({ value: 'unknown', why: 'silent' });
  });
  it('a player who "must play for there to be action" voids the prop, as "must play for action" does; "both players and pitchers" is "both ... and", no matchup of two players', () => {
    expect(readRule('Starting pitchers must play for there to be action.', 'non_participation', m('mlb', 'player_prop'))).toMatchObject({ value: 'void' });
    expect(readRule('Both players and goalies listed must play for there to be action.', 'non_participation', m('nhl', 'player_prop'))).toMatchObject({ value: 'void' });
    // "Both players" alone is a matchup of two players, a market outside the spec.
    expect(readRule('Both players must play for there to be action.', 'non_participation', m('nhl', 'player_prop'))).toEqual({ value: 'unknown', why: 'silent' });
  });
  it('a prediction market whose questions "resolve NO" when the game "is canceled or does not occur" loses a cancelled game\'s props, as "resolves NO" does for a player who does not play', () => {
    expect(readRule('If the championship game is canceled or does not occur, every question resolves NO.', 'cancellation', m('nba', 'player_prop'))).toMatchObject({ value: 'loses' });
    expect(readRule('If the game does not occur, this market will resolve to No.', 'cancellation', m('nfl', 'player_prop'))).toMatchObject({ value: 'loses' });
    // A game held up and not played this week is a postponement, not a cancellation.
    expect(readRule('If the game is postponed and does not occur this week, the market resolves NO.', 'cancellation', m('nfl', 'player_prop'))).toEqual({ value: 'unknown', why: 'silent' });
  });
  it('a nine-inning basis extended past "(8 1/2 with the home team ahead)" by "including any extra innings" counts them, as past "(8 1/2 if the home team leads)"', () => {
    expect(readRule('Run line: settled on the official result after 9 innings (8 1/2 with the home team ahead), including any extra innings.', 'overtime', m('mlb', 'spread'))).toMatchObject({ value: 'included' });
    expect(readRule('Totals are graded on the official result after 9 innings (8.5 with the home side leading) including any extra innings.', 'overtime', m('mlb', 'total'))).toMatchObject({ value: 'included' });
    // Without the extension the basis is nine innings.
    expect(readRule('Run line: settled on the official result after 9 innings (8 1/2 with the home team ahead).', 'overtime', m('mlb', 'spread'))).toMatchObject({ value: 'excluded' });
  });
  it('"if the score is level" names a tie, as "if the scores are level" does', () => {
    expect(readRule('First five innings: if the score is level, 2-way money line bets are refunded.', 'tie', m('mlb', 'moneyline', 'half:1'))).toMatchObject({ value: 'void' });
    expect(readRule('NFL money line: if the score is level, the bet is void.', 'tie', m('nfl', 'moneyline'))).toMatchObject({ value: 'void' });
    // A level score named with no settlement states nothing.
    expect(readRule('First five innings: if the score is level, the home team bats last.', 'tie', m('mlb', 'moneyline', 'half:1'))).toEqual({ value: 'unknown', why: 'silent' });
  });
  it('a game that "must be played completely to be valid" (in full, to its conclusion; to have action, to stand) leaves a cancelled game\'s props without action', () => {
    expect(readRule('Player props: the match must be played in full for bets to have action.', 'cancellation', m('nba', 'player_prop'))).toMatchObject({ value: 'void' });
    expect(readRule('For all propositions the game must be played to its conclusion to stand.', 'cancellation', m('nhl', 'player_prop'))).toMatchObject({ value: 'void' });
    // A game played on its date or at its time is a postponement's condition, not a cancellation's.
    expect(readRule('Player props: the game must be played at the scheduled time for bets to stand.', 'cancellation', m('nba', 'player_prop'))).toEqual({ value: 'unknown', why: 'silent' });
  });
});
describe('the wrong value of the thirty-eighth blind batch (sentences written for these tests)', () => {
  it('in a list of a game\'s markets, a market\'s label that includes overtime ("winner incl. overtime, total 5.5") is said of that market, not of the market listed after it', () => {
    const text = 'Offered: Kings v Ducks (match winner incl. overtime and shootout, total goals 5.5).';
    expect(readRule(text, 'overtime', m('nhl', 'total'))).toEqual({ value: 'unknown', why: 'silent' });
    expect(readRule(text, 'overtime', m('nhl', 'moneyline'))).toMatchObject({ value: 'included' });
    expect(readRule('Markets: Lakers v Suns (winner incl. OT, handicap -3.5).', 'overtime', m('nba', 'spread'))).toEqual({ value: 'unknown', why: 'silent' });
    // A statement of the two markets together still holds for both.
    expect(readRule('Match winner and total goals bets include overtime and the shootout.', 'overtime', m('nhl', 'total'))).toMatchObject({ value: 'included' });
  });
});
describe('the wrong value of the fortieth blind batch (sentences written for these tests)', () => {
  it('a market that resolves to its "No Contest" outcome on a tie settles the tie on an outcome of its own, not on "No"', () => {
    expect(readRule("Should the game end level after overtime, the market will resolve as 'No Contest'.", 'tie', m('nfl', 'moneyline'))).toMatchObject({ value: 'separate_outcome' });
    expect(readRule('A tied game resolves to No Contest; a game not played does too.', 'tie', m('nfl', 'moneyline'))).toMatchObject({ value: 'separate_outcome' });
    // A market that resolves "No" on a tie is still a loss of the side.
    expect(readRule('If the game ends in a tie, this market resolves as No.', 'tie', m('nfl', 'moneyline'))).toMatchObject({ value: 'loses' });
    expect(readRule('If the game ends in a tie, the contract is settled as No.', 'tie', m('nfl', 'moneyline'))).toMatchObject({ value: 'loses' });
    // A bet graded "no contest" (a sportsbook's word for a bout with no result) names no outcome of the market.
    expect(readRule('If the game ends in a tie, wagers are graded as no contest.', 'tie', m('nfl', 'moneyline'))).not.toMatchObject({ value: 'loses' });
  });
});
describe('stated values of the thirty-eighth blind batch read unknown (sentences written for these tests)', () => {
  it('a bet "declared null" is void, as a bet declared void is', () => {
    expect(readRule('A handicap that ends exactly on a whole-number line is declared null.', 'push', m('nba', 'spread'))).toMatchObject({ value: 'void' });
    expect(readRule('If the player does not take part, his bets are declared null.', 'non_participation', m('nhl', 'player_prop'))).toMatchObject({ value: 'void' });
    expect(readRule('If a game is cancelled, player bets are declared null.', 'cancellation', m('nba', 'player_prop'))).toMatchObject({ value: 'void' });
    // A line that is null says nothing of how a bet is settled.
    expect(readRule('A total with a null line is not offered.', 'push', m('nba', 'total'))).toEqual({ value: 'unknown', why: 'silent' });
  });
  it('a game that "does not start on the scheduled date or is cancelled" names a cancellation beside the postponement', () => {
    expect(readRule('If a game does not start on its scheduled date or is cancelled, open player bets are void.', 'cancellation', m('nba', 'player_prop'))).toMatchObject({ value: 'void' });
    expect(readRule('If the event does not start at the planned time or is cancelled, player props are refunded.', 'cancellation', m('nhl', 'player_prop'))).toMatchObject({ value: 'void' });
    // A game that does not start on its date, cancellation not named, is a postponement only.
    expect(readRule('If a game does not start on its scheduled date, open player bets are void.', 'cancellation', m('nba', 'player_prop'))).toEqual({ value: 'unknown', why: 'silent' });
  });
  it('a player who "enters the court" (the ice, the field) takes part, as one who takes the court does', () => {
    expect(readRule('Player bets stand only if the player enters the court; otherwise they are void.', 'non_participation', m('wnba', 'player_prop'))).toMatchObject({ value: 'void' });
    expect(readRule('Props are valid only if the player enters the ice.', 'non_participation', m('nhl', 'player_prop'))).toMatchObject({ value: 'void' });
    // A player who enters the court with no settlement named states nothing.
    expect(readRule('The player enters the court after the anthem.', 'non_participation', m('nba', 'player_prop'))).toEqual({ value: 'unknown', why: 'silent' });
  });
  it('a push that counts "neither as a win nor as a loss" is void: the pick leaves the record as a returned stake does', () => {
    expect(readRule('Against the spread, a push is counted neither as a win nor as a loss.', 'push', m('nfl', 'spread'))).toMatchObject({ value: 'void' });
    expect(readRule('If the total lands on the number, the pick is neither a win nor a loss.', 'push', m('nba', 'total'))).toMatchObject({ value: 'void' });
    // A tied game named so, no push, states no push rule.
    expect(readRule('A tied game is neither a win nor a loss in the standings.', 'push', m('nfl', 'spread'))).toEqual({ value: 'unknown', why: 'silent' });
  });
});
describe('stated values of the fortieth blind batch read unknown (sentences written for these tests)', () => {
  it('a game that "fails to resume" (does not resume) within or after a set time names a cancellation, as one "not resumed within" it does', () => {
    expect(readRule('Should a match be suspended or postponed and fail to resume after 24 hours from the scheduled start, all bets on it are deemed void.', 'cancellation', m('nba', 'player_prop'))).toMatchObject({ value: 'void' });
    expect(readRule('If a game is halted and fails to resume within 48 hours, player props are void.', 'cancellation', m('mlb', 'player_prop'))).toMatchObject({ value: 'void' });
    expect(readRule('If an event is abandoned and does not resume within 36 hours, every contract is void.', 'cancellation', m('nhl', 'player_prop'))).toMatchObject({ value: 'void' });
    // A game that resumes within the time states no cancellation.
    expect(readRule('If play is suspended, player bets stand as long as the game resumes within 12 hours.', 'cancellation', m('nba', 'player_prop'))).toEqual({ value: 'unknown', why: 'silent' });
  });
});

describe('stated values of the thirty-ninth blind batch read unknown (sentences written for these tests)', () => {
  it('a game that "has not been completed by" a date names a cancellation, as one "not completed by" it does', () => {
    expect(readRule('If the game has not been completed by December 31, 2026, 11:59 PM ET, this market will resolve to "50-50".', 'cancellation', m('nhl', 'player_prop'))).toMatchObject({ value: 'half_payout' });
    expect(readRule('If the match has not been completed within 48 hours, all bets are void.', 'cancellation', m('nba', 'player_prop'))).toMatchObject({ value: 'void' });
    // A postponed game not completed by a date is a postponement, no cancellation.
    expect(readRule('If the game has been postponed and has not been completed by Sunday, bets stand.', 'cancellation', m('nhl', 'player_prop'))).toEqual({ value: 'unknown', why: 'silent' });
  });
  it('overtime named in the plural ("after overtimes") is what a settlement waits for, as "after all overtimes" is', () => {
    expect(readRule('All markets are resolved with results after overtimes.', 'overtime', m('nba', 'player_prop'))).toMatchObject({ value: 'included' });
    expect(readRule('Totals are settled after any overtimes.', 'overtime', m('nhl', 'total'))).toMatchObject({ value: 'included' });
    // Overtimes described, no settlement named, state nothing.
    expect(readRule('Overtimes are played until a goal is scored.', 'overtime', m('nhl', 'total'))).toEqual({ value: 'unknown', why: 'silent' });
  });
  it('a comma before "not for" inside parentheses excepts what follows, as ", but not for" does', () => {
    expect(readRule('All markets are resolved with results after overtime (for binary sports, not for soccer).', 'overtime', m('nba', 'player_prop'))).toMatchObject({ value: 'included' });
    expect(readRule('Totals include overtime (for all leagues, not for the NHL).', 'overtime', m('nba', 'total'))).toMatchObject({ value: 'included' });
    // Cases listed in parentheses stay one clause: "not entered" opens no exception.
    expect(readRule('Player props are void if the player is (inactive, not entered, or absent).', 'non_participation', m('nba', 'player_prop'))).toMatchObject({ value: 'void' });
  });
});

describe('the forty-first blind batch: a heading period list opening with "Match"', () => {
  it('takes "(Match/Period)", "(Match/Innings)", "(Match/Half)" and "(Match/Half/Quarter)" after a market heading to name the full game among its periods', () => {
    const hockey = 'Goals Total (overtime included): all goals of the game, overtime included. Goals Total (Match/Period): the goals scored in the game or the chosen period, without overtime unless the market name says so.';
    expect(readRule(hockey, 'overtime', m('nhl', 'total'))).toMatchObject({ value: 'excluded' });
    const football = 'Overtime does not count unless the market says so. Moneyline (Match/Half/Quarter): the winner of the game or period, overtime included.';
    expect(readRule(football, 'overtime', m('nfl', 'moneyline'))).toMatchObject({ value: 'included' });
    expect(readRule(football, 'overtime', m('nfl', 'moneyline', 'quarter:4'))).toMatchObject({ value: 'included' });
    const halves = 'Overtime does not count unless the market says so. Moneyline (Match/Half): the side that wins the match or the period named, overtime included.';
    expect(readRule(halves, 'overtime', m('nfl', 'moneyline'))).toMatchObject({ value: 'included' });
    // A list without "Match" names periods only: the full game keeps the general sentence.
    const periods = 'Overtime does not count unless the market says so. Moneyline (Half/Quarter): the winner of the period, overtime included.';
    expect(readRule(periods, 'overtime', m('nfl', 'moneyline'))).toMatchObject({ value: 'excluded' });
  });
});

describe('the forty-first blind batch: a market entry\'s sentence about "all bets"', () => {
  it('takes the entry\'s market: more specific than the section\'s general sentence, and not the other entries\' markets', () => {
    const text = 'Basketball. Overtime counts. Markets. Moneyline (Match/Half): the team that wins the game or period. All bets are settled on the result at the end of regulation time. Total (Match/Half): the points scored in the game or period.';
    expect(readRule(text, 'overtime', m('nba', 'moneyline'))).toMatchObject({ value: 'excluded' });
    expect(readRule(text, 'overtime', m('nba', 'total'))).toMatchObject({ value: 'included' });
    // A sentence naming a league of its own ends the entry: "all bets" after it are every market's.
    const parts = 'Part B - General Rules. Moneyline: the winner of the game. Part C - American Football. All bets are settled on the result at the end of regulation time.';
    expect(readRule(parts, 'overtime', m('nfl', 'total'))).toMatchObject({ value: 'excluded' });
    // A heading that is more than a market's name explains the market and is no entry of a list.
    const payoff = 'Moneyline payoff: -120 means $120 staked to win $100. All bets are settled on the result at the end of regulation time.';
    expect(readRule(payoff, 'overtime', m('nfl', 'total'))).toMatchObject({ value: 'excluded' });
  });
});

describe('the forty-first blind batch: a tie after overtime that voids the bets', () => {
  it('says the bet on the winner is taken after overtime: the money line counts overtime', () => {
    expect(readRule('Moneyline: the team that wins the game. If the game is tied after overtime, all bets are void.', 'overtime', m('nfl', 'moneyline'))).toMatchObject({ value: 'included' });
    expect(readRule('In the event of a tie following overtime all bets will be voided unless the draw is a given option.', 'overtime', m('nfl', 'moneyline'))).toMatchObject({ value: 'included' });
    // The tie is the winner's: it says nothing of a spread or a total beside it.
    expect(readRule('In the event of a tie following overtime, all stakes are refunded.', 'overtime', m('nfl', 'spread'))).toEqual({ value: 'unknown', why: 'silent' });
    // No case, or no void, states nothing: "level after overtime is not a void game", "tied after overtime goes to a shootout".
    expect(readRule('A game that is level after overtime is not a void game.', 'overtime', m('nhl', 'moneyline'))).toEqual({ value: 'unknown', why: 'silent' });
    expect(readRule('If the game is tied after overtime, it goes to a shootout.', 'overtime', m('nhl', 'moneyline'))).toEqual({ value: 'unknown', why: 'silent' });
  });
});

describe('the forty-second blind batch: the game lines are no player prop (sentences written for these tests)', () => {
  it('does not read a player prop\'s overtime from a sentence on "game lines" or "game and second half lines", which are the markets on the game\'s result and score', () => {
    expect(readRule('All game and second half lines include overtime unless stated otherwise.', 'overtime', m('nfl', 'player_prop'))).toEqual({ value: 'unknown', why: 'silent' });
    expect(readRule('Game lines and 2nd half wagers include overtime unless stated otherwise.', 'overtime', m('nba', 'player_prop'))).toEqual({ value: 'unknown', why: 'silent' });
    expect(readRule('Game lines include extra innings.', 'overtime', m('mlb', 'player_prop'))).toEqual({ value: 'unknown', why: 'silent' });
    // The game's own lines keep the sentence.
    expect(readRule('All game and second half lines include overtime unless stated otherwise.', 'overtime', m('nfl', 'total'))).toMatchObject({ value: 'included' });
    expect(readRule('Game lines and 2nd half wagers include overtime unless stated otherwise.', 'overtime', m('nba', 'spread', 'half:2'))).toMatchObject({ value: 'included' });
    // "Full-game lines" names the period the lines are on, which a full-game prop is on too; "pre-game lines" the time
    // they are offered; and a sentence naming the props beside the game lines speaks of them.
    expect(readRule('Full-game and second-half lines include overtime scoring.', 'overtime', m('nba', 'player_prop'))).toMatchObject({ value: 'included' });
    expect(readRule('Pre-game lines: all bets include extra innings unless otherwise stated.', 'overtime', m('mlb', 'player_prop'))).toMatchObject({ value: 'included' });
    expect(readRule('Game lines and player props include overtime.', 'overtime', m('nfl', 'player_prop'))).toMatchObject({ value: 'included' });
  });
});

describe('the forty-second blind batch: shootouts excluded by a verb (sentences written for these tests)', () => {
  it('reads "include overtime but exclude shootouts" as overtime included: the shootout excluded says nothing of overtime, as "excluding shootouts" does not', () => {
    expect(readRule('Player prop markets include overtime but exclude shootouts unless stated otherwise.', 'overtime', m('nhl', 'player_prop'))).toMatchObject({ value: 'included' });
    expect(readRule('The total includes overtime and excludes the shootout.', 'overtime', m('nhl', 'total'))).toMatchObject({ value: 'included' });
    // Overtime excluded with the shootout stays excluded.
    expect(readRule('Regulation time only markets exclude overtime and shootouts.', 'overtime', m('nhl', 'total'))).toMatchObject({ value: 'excluded' });
    expect(readRule('Totals exclude overtime and the shootout.', 'overtime', m('nhl', 'total'))).toMatchObject({ value: 'excluded' });
  });
});

describe('the forty-second blind batch: a player who takes no part settled at a fair price (sentences written for these tests)', () => {
  it('reads "settles to the (last) fair market price" for a player who does not take part as fair_price, as it does for a cancelled game', () => {
    expect(readRule('If the player is active but never takes a snap, the market settles to the fair market price before kickoff.', 'non_participation', m('nfl', 'player_prop'))).toMatchObject({ value: 'fair_price' });
    expect(readRule('The listed player must take part in the game; otherwise, the market will settle to the last fair market price.', 'non_participation', m('nfl', 'player_prop'))).toMatchObject({ value: 'fair_price' });
    expect(readRule('If the player does not play, the contract resolves at a fair price.', 'non_participation', m('nba', 'player_prop'))).toMatchObject({ value: 'fair_price' });
    // A fair price for a game not started is the cancellation's, not the player's.
    expect(readRule('If the game is not started within 48 hours, the market will resolve to a fair price.', 'non_participation', m('nfl', 'player_prop'))).toEqual({ value: 'unknown', why: 'silent' });
  });
});

describe('the forty-second blind batch: a market heading ends a live-betting section (sentences written for these tests)', () => {
  it('reads the sentences after a heading that is only a market of ours ("Player Props.") outside the live-betting section before it', () => {
    const panel = 'Football. Live Betting: if the event is not resumed within 24 hours, wagers will be void. Only official statistics count. Player Props. Bets are void if the player does not take part. Money Lines. If the final result is a draw, the wager will be refunded.';
    expect(readRule(panel, 'tie', m('nfl', 'moneyline'))).toMatchObject({ value: 'void' });
    expect(readRule(panel, 'non_participation', m('nfl', 'player_prop'))).toMatchObject({ value: 'void' });
    // With no such heading the sentences stay in the live-betting section.
    const live = 'Football. Live Betting: if the event is not resumed within 24 hours, wagers will be void. Only official statistics count. If the final result is a draw, the wager will be refunded.';
    expect(readRule(live, 'tie', m('nfl', 'moneyline'))).toEqual({ value: 'unknown', why: 'silent' });
    // A sentence naming a market with a verb of its own is a statement under the heading, not a heading.
    const stated = 'Football. Live Betting: if the event is not resumed within 24 hours, wagers will be void. Money lines are settled live. If the final result is a draw, the wager will be refunded.';
    expect(readRule(stated, 'tie', m('nfl', 'moneyline'))).toEqual({ value: 'unknown', why: 'silent' });
  });
});

describe('the forty-third blind batch: "all bets" after a clause about a sport outside the spec (sentences written for these tests)', () => {
  it('keeps "all bets" after a semicolon that follows a clause about boxing to that sport', () => {
    const notice = "Round betting: where a boxer fails to answer the bell, the opponent wins the previous round; where a technical draw is declared, all bets are losing bets.";
    expect(readRule(notice, 'tie', m('nfl', 'moneyline'))).toEqual({ value: 'unknown', why: 'silent' });
    expect(readRule('In boxing, a draw is declared after twelve rounds; all bets are refunded on a draw.', 'tie', m('nfl', 'moneyline'))).toEqual({ value: 'unknown', why: 'silent' });
    // After a clause about a sport of ours, "all bets" are every market's.
    expect(readRule('In football, a game can end level; if the game ends in a draw, all bets are refunded.', 'tie', m('nfl', 'moneyline'))).toMatchObject({ value: 'void' });
  });
});

describe('the forty-sixth blind batch: a cancelled game named as a case is no tie rule (sentences written for these tests)', () => {
  it('reads no tie value from "cancelled" said of the game in a condition', () => {
    expect(readRule('Each winner market lists a tie among its picks, and the market is closed if the game is, say, cancelled.', 'tie', m('nfl', 'moneyline'))).toEqual({ value: 'unknown', why: 'silent' });
    expect(readRule('A tie pick is offered, which settles the market if the match is cancelled.', 'tie', m('nfl', 'moneyline'))).toEqual({ value: 'unknown', why: 'silent' });
    // Said as the consequence of a tie, or with the tie inside the case, it is the tie's value still.
    expect(readRule('The game market is cancelled when the game ends in a draw.', 'tie', m('nfl', 'moneyline'))).toMatchObject({ value: 'void' });
    expect(readRule('If a game is tied, it is cancelled.', 'tie', m('nfl', 'moneyline'))).toMatchObject({ value: 'void' });
  });
});

describe('the forty-sixth blind batch: a tie listed among a market\'s counted outcomes (sentences written for these tests)', () => {
  it('reads a tie item in a one-clause list after "has N tokens:" / "N outcomes:" as a separate outcome', () => {
    expect(readRule("'Who will win?' has three tokens: HOME, AWAY and TIE.", 'tie', m('nfl', 'moneyline'))).toMatchObject({ value: 'separate_outcome' });
    expect(readRule('The match market has three outcomes: the Vikings, the Lions or a draw.', 'tie', m('nfl', 'moneyline'))).toMatchObject({ value: 'separate_outcome' });
    // No tie among the items, or no other item beside it, is no such list.
    expect(readRule('The market has two outcomes: Yes and No.', 'tie', m('nfl', 'moneyline'))).toEqual({ value: 'unknown', why: 'silent' });
    expect(readRule('Four outcomes: tie.', 'tie', m('nfl', 'moneyline'))).toEqual({ value: 'unknown', why: 'silent' });
  });
});

describe('the forty-sixth blind batch: a draw that returns every bet (sentences written for these tests)', () => {
  it('reads "returns every bet" / "return all wagers" on a draw as void, and a lacking means as nothing', () => {
    expect(readRule('Settling an event with the Draw result returns every bet to its bettor.', 'tie', m('nfl', 'moneyline'))).toMatchObject({ value: 'void' });
    expect(readRule('If the game ends in a tie, we return all wagers.', 'tie', m('nfl', 'moneyline'))).toMatchObject({ value: 'void' });
    // A means said to be lacking is neither the value nor its denial.
    expect(readRule('When an event ends in a draw there is currently no way to return the bets.', 'tie', m('nfl', 'moneyline'))).toEqual({ value: 'unknown', why: 'silent' });
    // A denied return stays denied.
    expect(readRule('If the game ends in a tie, we do not return the bets.', 'tie', m('nfl', 'moneyline'))).not.toMatchObject({ value: 'void' });
  });
});

describe('the forty-sixth blind batch: a tie that resolves the market to No Contest (sentences written for these tests)', () => {
  it('reads "resolves the market to/as No Contest" on a tie as a separate outcome, as "resolves to No Contest" is', () => {
    expect(readRule("A tied game resolves the market to 'No Contest'.", 'tie', m('nfl', 'moneyline'))).toMatchObject({ value: 'separate_outcome' });
    expect(readRule("If the game ends in a tie, the oracle will resolve the market as 'No Contest'.", 'tie', m('nfl', 'moneyline'))).toMatchObject({ value: 'separate_outcome' });
    // Said of a game not played, it is no tie rule.
    expect(readRule("If the game is not played, the oracle will resolve the market as 'No Contest'.", 'tie', m('nfl', 'moneyline'))).toEqual({ value: 'unknown', why: 'silent' });
  });
});

describe('overtime said in the passive: "not affected by" the extra points (sentences written for these tests)', () => {
  it('reads a market "not affected by" overtime or its extra points as excluding it', () => {
    expect(readRule('Totals are not affected by overtime.', 'overtime', m('nba', 'total'))).toMatchObject({ value: 'excluded' });
    expect(readRule('If a game goes to overtime, spread bets are not affected by the extra points.', 'overtime', m('nfl', 'spread'))).toMatchObject({ value: 'excluded' });
    // Not affected by something else (a delay) says nothing of overtime; affected says nothing either way.
    expect(readRule('If the game goes to overtime, totals are not affected by the delay.', 'overtime', m('nba', 'total'))).toEqual({ value: 'unknown', why: 'silent' });
    expect(readRule('Totals are affected by overtime.', 'overtime', m('nba', 'total'))).toEqual({ value: 'unknown', why: 'silent' });
  });
});

describe('the forty-fifth blind batch: a market dictionary\'s entry asked as a question (sentences written for these tests)', () => {
  it('reads "Label: will ... be over or under ... for regular time?" as the labelled market on regulation alone', () => {
    expect(readRule('Total Points: will the points both teams score be over or under the predicted score for regular time?', 'overtime', m('nba', 'total'))).toMatchObject({ value: 'excluded' });
    expect(readRule('Total Goals: will the goals both teams score be more or less than the line, the score for regulation time?', 'overtime', m('nhl', 'total'))).toMatchObject({ value: 'excluded' });
    // A question that is no such entry still states nothing: one about overtime itself, or one with no market label.
    expect(readRule('Totals: will overtime count for the score?', 'overtime', m('nba', 'total'))).toEqual({ value: 'unknown', why: 'silent' });
    expect(readRule('Will the points be over or under the predicted score for regular time?', 'overtime', m('nba', 'total'))).toEqual({ value: 'unknown', why: 'silent' });
    // The score for regulation and overtime takes overtime in.
    expect(readRule('Total Points: will the points be over or under the score for regular time and overtime?', 'overtime', m('nba', 'total'))).not.toMatchObject({ value: 'excluded' });
  });
});
