// Reads the held-out probes (test/fixtures/rules/held-out-probes.json: short rules texts modelled on
// public pages outside the corpus, values decided before any reader read them) and prints, for each
// half of their random split, stated values read right, read wrong and reported unknown, and silent
// probes reported known. Half A may be looked at while tuning; half B is only counted, so its
// before/after says how a change meets wording it was not made from.
//   --misses      lists half A's misses (what tuning may look at)
//   --misses=all  lists both halves' misses (for the report, after tuning is done)
//   --probes=FILE reads another probe set of the same form (held-out-probes-stated.json: stated values
//                 the reader reported unknown) instead of held-out-probes.json
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { readRule, type MarketScope, type ReadRule } from '../pipelines/matching/rulesreader.ts';

interface Probe {
  id: string;
  half: 'A' | 'B';
  text: string;
  rule: ReadRule;
  league: MarketScope['league'];
  marketType: MarketScope['marketType'];
  segment: MarketScope['segment'];
  expected: string;
}

const given = process.argv.find((a) => a.startsWith('--probes='))?.slice('--probes='.length);
const file = given ?? fileURLToPath(new URL('../test/fixtures/rules/held-out-probes.json', import.meta.url));
const probes = (JSON.parse(readFileSync(file, 'utf8')) as { probes: Probe[] }).probes;
const misses = process.argv.find((a) => a === '--misses' || a === '--misses=all');

for (const half of ['A', 'B'] as const) {
  const k = { stated: 0, right: 0, wrong: 0, unknown: 0, silent: 0, silentKnown: 0 };
  const lines: string[] = [];
  for (const p of probes.filter((x) => x.half === half)) {
    const r = readRule(p.text, p.rule, { league: p.league, marketType: p.marketType, segment: p.segment });
    const ok = r.value === p.expected;
    if (p.expected === 'unknown') {
      k.silent++;
      if (!ok) k.silentKnown++;
    } else {
      k.stated++;
      if (ok) k.right++;
      else if (r.value === 'unknown') k.unknown++;
      else k.wrong++;
    }
    if (!ok) lines.push(`    ${p.id} ${p.rule} [${p.league} ${p.marketType} ${p.segment}]: expected ${p.expected}, read ${r.value}${r.evidence ? ` ("${r.evidence}")` : ''} | ${p.text}`);
  }
  console.log(`half ${half}: stated ${k.stated}: right ${k.right}, wrong ${k.wrong}, unknown ${k.unknown} | silent ${k.silent}: reported known ${k.silentKnown}`);
  if (misses === '--misses=all' || (misses === '--misses' && half === 'A')) for (const l of lines) console.log(l);
}
