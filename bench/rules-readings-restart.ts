// The canonicalizer's CPU on the listing read after a restart, with and without the rules readings
// kept on matching.state (KeptReadings, pipelines/matching/stages/canonicalize.ts), and how many
// distinct rules texts a listing holds. Three fresh processes, as a restart has them:
//   write: a simulator's listing read twice at a frozen clock --step-s apart (the crawls before and
//          after a restart), the first ingested by a canonicalizer as the stage runs it (batches of
//          500, its kept readings written with each batch); its outputs and the second listing saved
//          to --dir, with the count of distinct texts and the size of their records;
//   read --readings yes|no: a canonicalizer restored from those outputs (rosters, matching.state with
//          or without the reading records, canonical.markets), then the second listing ingested in
//          batches of 500: its CPU, the texts parsed, the texts whose readings came from a record,
//          and a digest of the canonical.markets and crawl state it wrote (the same with and without).
//   node --import tsx bench/rules-readings-restart.ts --phase write --dir DIR [--scale 1] [--step-s 120] [--seed 7]
//   node --import tsx bench/rules-readings-restart.ts --phase read --dir DIR --readings yes|no
import { createHash } from 'node:crypto';
import { closeSync, mkdirSync, openSync, readSync, writeSync } from 'node:fs';
import { loadavg } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { successiveListings } from './listed-records.ts';
import { Canonicalizer, KeptReadings, READING_PREFIX } from '../pipelines/matching/stages/canonicalize.ts';
import { processReader } from '../pipelines/matching/rulestext.ts';
import type { OutRecord } from '../pipelines/runtime/types.ts';
import type { CanonicalMarket as CanonicalRecord, RawRecord } from '../pipelines/topics.ts';

const { values } = parseArgs({
  options: {
    phase: { type: 'string' },
    dir: { type: 'string' },
    scale: { type: 'string', default: '1' },
    'step-s': { type: 'string', default: '120' },
    seed: { type: 'string', default: '7' },
    readings: { type: 'string', default: 'yes' },
  },
});
if (!values.dir || !values.phase) throw new Error('--phase write|read --dir DIR');
const dir = values.dir;
const load = () => loadavg()[0]!.toFixed(2);
const BATCH = 500;

function writeLines(file: string, list: unknown[]): void {
  const fd = openSync(file, 'w');
  for (let i = 0; i < list.length; i += 1000) writeSync(fd, list.slice(i, i + 1000).map((x) => `${JSON.stringify(x)}\n`).join(''));
  closeSync(fd);
}

function readLines<T>(file: string): T[] {
  const out: T[] = [];
  let rest = '';
  const fd = openSync(file, 'r');
  const buf = Buffer.alloc(1 << 24);
  for (let n: number; (n = readSync(fd, buf)) > 0; ) {
    const lines = (rest + buf.toString('utf8', 0, n)).split('\n');
    rest = lines.pop()!;
    for (const l of lines) out.push(JSON.parse(l) as T);
  }
  closeSync(fd);
  return out;
}

/** Records ingested in the stage's batches, the kept readings' records after each; all written. */
function ingest(c: Canonicalizer, records: RawRecord[]): OutRecord[] {
  const out: OutRecord[] = [];
  for (let i = 0; i < records.length; i += BATCH) {
    const batch = c.ingest(records.slice(i, i + BATCH));
    out.push(...(c.kept ? c.kept.writes(batch) : batch));
  }
  return out;
}

if (values.phase === 'write') {
  mkdirSync(dir, { recursive: true });
  const [before, after] = await successiveListings({ seed: Number(values.seed), scale: Number(values.scale), reads: 2, stepMs: Number(values['step-s']) * 1000 });
  const c = new Canonicalizer(new KeptReadings());
  const cpu0 = process.cpuUsage();
  const out = ingest(c, before!);
  const cpu = process.cpuUsage(cpu0);
  const readings = out.filter((o) => o.topic === 'matching.state' && o.key!.startsWith(READING_PREFIX));
  const last = new Map(readings.map((o) => [o.key!, (o.value as RawRecord).payload]));
  const bytes = [...last.values()].reduce((n, p) => n + p.length, 0);
  const perText = [...last.values()].map((p) => (JSON.parse(p) as unknown[]).length);
  console.log(
    `scale ${values.scale}: ${before!.length} records listed, ${after!.length} read ${values['step-s']} s later; first read ${((cpu.user + cpu.system) / 1000).toFixed(0)} ms CPU (load ${load()}); ` +
      `${c.kept!.size} distinct rules texts, ${readings.length} reading records written (${last.size} kept), ${(bytes / 1e6).toFixed(1)} MB of payload, ` +
      `${Math.min(...perText)}-${Math.max(...perText)} readings a text (mean ${(perText.reduce((a, b) => a + b, 0) / perText.length).toFixed(1)})`,
  );
  // One record a line: a scale-100 listing is longer than a string may be.
  writeLines(path.join(dir, 'written.ndjson'), out);
  writeLines(path.join(dir, 'after.ndjson'), after!);
} else {
  const written = readLines<OutRecord>(path.join(dir, 'written.ndjson'));
  const after = readLines<RawRecord>(path.join(dir, 'after.ndjson'));
  const withReadings = values.readings === 'yes';
  const c = new Canonicalizer(new KeptReadings());
  const r0 = process.cpuUsage();
  for (const o of written)
    if (o.topic === 'matching.state' && o.key && (withReadings || !o.key.startsWith(READING_PREFIX))) c.restoreState(o.key, o.value as RawRecord | null);
  for (const o of written) if (o.topic === 'canonical.markets' && o.key) c.restoreMarket(o.key, o.value as CanonicalRecord | null);
  c.finishRestore();
  const r1 = process.cpuUsage(r0);
  const restoreMs = (r1.user + r1.system) / 1000;
  const cpu0 = process.cpuUsage();
  const out = ingest(c, after);
  const cpu = process.cpuUsage(cpu0);
  const hash = createHash('sha256');
  let markets = 0;
  for (const o of out)
    if (!o.key?.startsWith(READING_PREFIX)) {
      if (o.topic === 'canonical.markets') markets++;
      hash.update(`${o.topic}\u0000${String(o.key)}\u0000${JSON.stringify(o.value)}\n`);
    }
  const reader = processReader();
  console.log(
    `readings restored: ${withReadings ? 'yes' : 'no '}; restore ${restoreMs.toFixed(0)} ms CPU; the later listing (${after.length} records) ${((cpu.user + cpu.system) / 1000).toFixed(0)} ms CPU (load ${load()}), ` +
      `${reader.parses} texts parsed, ${reader.restoredHits} from a record; ${markets} canonical.markets written, outputs sha256 ${hash.digest('hex').slice(0, 12)} (reading records aside)`,
  );
}
