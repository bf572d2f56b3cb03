// Reads a .cpuprofile (V8's, as node --cpu-prof or bench/crawl-latency.ts --profile write it) and
// prints where the thread's time went: self time by function and by source file, and the time spent
// in frames of the files named by --under (inclusive: what a file's functions cost with what they call),
// and with --stretches MS the runs of MS or more without an idle sample (what holds the thread long
// enough to delay a request), longest first, each with its heaviest self-time functions and the
// project frames (not node_modules, not node:) nearest the top of its stacks.
//
//   npx tsx bench/profile-summary.ts FILE.cpuprofile [--top 30] [--under embedded.ts,runner.ts] [--stretches 10]
import { readFileSync } from 'node:fs';
import { benchArgs } from './args.ts';

interface Node {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: Node[];
  samples: number[];
  timeDeltas: number[];
  startTime: number;
  endTime: number;
}

const cli = benchArgs({ top: 30, stretches: 0, under: '' }, { positionals: true });
const file = cli.positionals[0];
if (!file) throw new Error('usage: profile-summary.ts FILE.cpuprofile [--top N] [--under a.ts,b.ts] [--stretches MS]');
const TOP = cli.top;
const UNDER = cli.under.split(',').filter(Boolean);
const STRETCH_MS = cli.stretches;

const p = JSON.parse(readFileSync(file, 'utf8')) as Profile;
const byId = new Map(p.nodes.map((n) => [n.id, n]));
const parent = new Map<number, number>();
for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n.id);

const self = new Map<number, number>();
for (let i = 0; i < p.samples.length; i++) self.set(p.samples[i]!, (self.get(p.samples[i]!) ?? 0) + (p.timeDeltas[i + 1] ?? 0));
const total = p.endTime - p.startTime;
const short = (url: string) => url.replace(/^.*\/(node_modules\/)?/, '');
const fn = (n: Node) => `${n.callFrame.functionName || '(anonymous)'} ${short(n.callFrame.url)}:${n.callFrame.lineNumber + 1}`;

const byFn = new Map<string, number>();
const byFile = new Map<string, number>();
const under = new Map<string, number>();
for (const [id, us] of self) {
  const n = byId.get(id)!;
  byFn.set(fn(n), (byFn.get(fn(n)) ?? 0) + us);
  const f = short(n.callFrame.url) || n.callFrame.functionName;
  byFile.set(f, (byFile.get(f) ?? 0) + us);
  // Inclusive: once per sample for each --under file on its stack.
  const seen = new Set<string>();
  for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) {
    const u = byId.get(cur)!.callFrame.url;
    for (const name of UNDER) if (u.endsWith(name) && !seen.has(name)) seen.add(name);
  }
  for (const name of seen) under.set(name, (under.get(name) ?? 0) + us);
}
const pct = (us: number) => `${((100 * us) / total).toFixed(1).padStart(5)}%`;
const print = (title: string, m: Map<string, number>) => {
  console.log(`\n${title}`);
  for (const [k, us] of [...m].sort((a, b) => b[1] - a[1]).slice(0, TOP)) console.log(`${pct(us)} ${(us / 1000).toFixed(0).padStart(7)} ms  ${k}`);
};
console.log(`${file}: ${(total / 1e6).toFixed(1)} s, ${p.samples.length} samples`);
print('self time by function', byFn);
print('self time by file', byFile);
if (UNDER.length) print('inclusive time under these files', under);

if (STRETCH_MS > 0) {
  const isIdle = (id: number) => byId.get(id)!.callFrame.functionName === '(idle)';
  // The innermost frame of this repository's own code on a sample's stack.
  const ownFrame = (id: number): string => {
    for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) {
      const n = byId.get(cur)!;
      const u = n.callFrame.url;
      if (u && !u.includes('node_modules') && !u.startsWith('node:') && u.includes('/')) return fn(n);
    }
    return fn(byId.get(id)!);
  };
  interface Stretch { start: number; us: number; self: Map<string, number>; own: Map<string, number> }
  const stretches: Stretch[] = [];
  let cur: Stretch | undefined;
  let t = p.startTime;
  for (let i = 0; i < p.samples.length; i++) {
    const id = p.samples[i]!;
    const dt = p.timeDeltas[i + 1] ?? 0;
    t += p.timeDeltas[i] ?? 0;
    if (isIdle(id)) {
      if (cur) stretches.push(cur);
      cur = undefined;
      continue;
    }
    cur ??= { start: t, us: 0, self: new Map(), own: new Map() };
    cur.us += dt;
    const f = fn(byId.get(id)!);
    cur.self.set(f, (cur.self.get(f) ?? 0) + dt);
    const o = ownFrame(id);
    cur.own.set(o, (cur.own.get(o) ?? 0) + dt);
  }
  if (cur) stretches.push(cur);
  const long = stretches.filter((s) => s.us >= STRETCH_MS * 1000).sort((a, b) => b.us - a.us);
  const top = (m: Map<string, number>, n: number) =>
    [...m].sort((a, b) => b[1] - a[1]).slice(0, n).map(([k, us]) => `${k} ${(us / 1000).toFixed(0)}`).join('; ');
  console.log(`\n${long.length} stretches of ${STRETCH_MS} ms or more without idle, ${(long.reduce((a, s) => a + s.us, 0) / 1000).toFixed(0)} ms in all; longest first:`);
  for (const s of long.slice(0, TOP)) {
    console.log(`${(s.us / 1000).toFixed(0).padStart(5)} ms at ${((s.start - p.startTime) / 1e6).toFixed(2)} s  self: ${top(s.self, 4)}\n         own code: ${top(s.own, 4)}`);
  }
  // Summed over every long stretch: which functions and which of our frames they hold.
  const sumSelf = new Map<string, number>();
  const sumOwn = new Map<string, number>();
  for (const s of long) {
    for (const [k, us] of s.self) sumSelf.set(k, (sumSelf.get(k) ?? 0) + us);
    for (const [k, us] of s.own) sumOwn.set(k, (sumOwn.get(k) ?? 0) + us);
  }
  print(`self time inside those stretches`, sumSelf);
  print(`own-code frame inside those stretches`, sumOwn);
}
