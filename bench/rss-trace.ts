// A process's RSS and high-water (VmRSS, VmHWM) every --every-ms, with the threads that used the CPU
// since the sample before (ticks of 10 ms, by thread name and the last digits of its id), to see what
// runs when a high-water mark is set between a soak's 30-second samples (bench/soak.md, runs 95-99:
// a rise of 170 MB within 6 s at a listing crawl, back down within 4 s). Reads /proc only; does not
// reset the high-water mark, so a soak watched by it reports its own figures unchanged.
//
//   npx tsx bench/rss-trace.ts --pid <service pid> [--every-ms 100] [--out trace.txt]
//
// Lines: `HH:MM:SS.s rss <MB> hwm <MB> anon <MB> file <MB> | <thread>.<tid>:<ticks> ...` (the five busiest). Ends when
// the process does. Worker threads are all named `node`: the order of their ids is the order they started.
import { appendFileSync, readdirSync, readFileSync } from 'node:fs';
import { benchArgs } from './args.ts';

const cli = benchArgs({ 'every-ms': 100, pid: '', out: '' });
const PID = cli.pid;
if (!/^\d+$/.test(PID)) throw new Error('--pid <process id> is required');
const EVERY_MS = cli['every-ms'];
const OUT = cli.out;

const kb = (status: string, key: string) => Number(new RegExp(`^${key}:\\s+(\\d+)`, 'm').exec(status)?.[1] ?? 0);
let before = new Map<string, number>();

function sample(): string | null {
  let status: string;
  try {
    status = readFileSync(`/proc/${PID}/status`, 'utf8');
  } catch {
    return null;
  }
  const now = new Map<string, number>();
  for (const tid of readdirSync(`/proc/${PID}/task`, { withFileTypes: false }) as string[]) {
    try {
      const stat = readFileSync(`/proc/${PID}/task/${tid}/stat`, 'utf8');
      const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      now.set(`${name}.${tid.slice(-3)}`, Number(f[11]) + Number(f[12]));
    } catch {
      // The thread ended between the listing and the read.
    }
  }
  const busy = [...now].map(([k, v]) => [k, v - (before.get(k) ?? v)] as const).filter(([, d]) => d > 0);
  busy.sort((a, b) => b[1] - a[1]);
  before = now;
  const t = new Date().toISOString().slice(11, 21);
  return `${t} rss ${Math.round(kb(status, 'VmRSS') / 1024)} hwm ${Math.round(kb(status, 'VmHWM') / 1024)} anon ${Math.round(kb(status, 'RssAnon') / 1024)} file ${Math.round(kb(status, 'RssFile') / 1024)} | ${busy.slice(0, 5).map(([k, d]) => `${k}:${d}`).join(' ')}`;
}

const timer = setInterval(() => {
  const line = sample();
  if (line === null) {
    clearInterval(timer);
    return;
  }
  if (OUT) appendFileSync(OUT, line + '\n');
  else console.log(line);
}, EVERY_MS);
