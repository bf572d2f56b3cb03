// Measures the settlement-rules reader on the corpus of real rules texts (test/fixtures/rules):
// per rule and overall, stated values read right, read wrong and reported unknown, silent texts
// reported known, and verdict accuracy over pairs of texts placed on the same market, for the
// development and the evaluation part of the first batch and of the blind batch (texts whose values
// were decided before the reader ever saw them, split once with its own seed).
//   --misses      lists every development row read differently from the hand value (what tuning
//                 may look at, the blind batches' former evaluation parts included); the evaluation
//                 parts are only counted, so tuning stays blind to them.
//   --misses=all  lists the evaluation parts' misses too (for the report, after tuning is done).
import { evaluate, loadCorpus, PARTS, partTexts, type RuleCounts } from '../pipelines/matching/ruleseval.ts';

const pct = (n: number, d: number) => (d ? `${((100 * n) / d).toFixed(1)}%` : '-');
const line = (name: string, k: RuleCounts) =>
  `  ${name.padEnd(18)} stated ${String(k.stated).padStart(3)}: right ${String(k.right).padStart(3)} (${pct(k.right, k.stated)}), wrong ${String(k.wrong).padStart(2)} (${pct(k.wrong, k.stated)}), unknown ${String(k.unknown).padStart(2)} | silent ${String(k.silent).padStart(3)}: reported known ${k.silentKnown}`;

const misses = process.argv.find((a) => a === '--misses' || a === '--misses=all');
const corpus = loadCorpus();
const blind = corpus.split.blind;
console.log(
  `corpus: ${corpus.texts.size} texts, ${corpus.rows.length} rows (text placed on a market); split by text, seed ${corpus.split.seed}` +
    (blind ? `; blind batch (${blind.development.length + blind.evaluation.length} texts) split with seed ${blind.seed}` : ''),
);
for (const part of PARTS) {
  if (!partTexts(corpus, part).length) continue;
  const r = evaluate(corpus, part);
  console.log(`\n${part}: ${r.texts} texts, ${r.rows} rows`);
  for (const [rule, k] of Object.entries(r.byRule).sort()) console.log(line(rule, k));
  console.log(line('overall', r.overall));
  console.log(`  verdicts (pairs of texts on the same market): ${r.verdicts.right} of ${r.verdicts.groups} right (${pct(r.verdicts.right, r.verdicts.groups)}); opposite stated rules reported equivalent: ${r.verdicts.oppositeEquivalent}`);
  const show = misses === '--misses=all' || (misses === '--misses' && (part.endsWith('development') || part.endsWith('former-evaluation')));
  if (show) for (const m of r.misses) console.log(`    ${m.row} ${m.rule}: expected ${m.expected}, read ${m.got}${m.evidence ? ` ("${m.evidence}")` : ''}`);
}
