// The process's code pages that are mapped but not in use (Linux). In: /proc/self/smaps. Out: the
// read-only mappings of libchdb and of node's own executable unmapped from this process with
// madvise(MADV_DONTNEED) (native/code-pages.c, built at install), now and every intervalMs after; the
// kernel maps each page again from the page cache when code next runs it (a minor fault).
//
// Why: libchdb is a 566 MB library whose start (ClickHouse's registries of functions, formats and
// settings, filled by static constructors spread over its code) touches pages all over it, and a fault
// can map up to 64 KB around its page (the kernel's fault-around). At scale 1 the service held 248-250
// MB of file pages in its RSS from start to end, 199 MB of them libchdb's (140 of its 391 MB of code, 51
// of its 149 MB of read-only data, 13 of relocated constants) and 56 MB node's. Dropped once chdb has
// opened and every minute since (so code run once, by a catalog build or a janitor's pass, goes again),
// the file pages were 96-99 MB on average (13-134) and the scale-1 high-water 142-263 MB lower than its
// base's in each pair (bench/soak.md, runs 117-124). The pages stay in the page cache, shared and
// reclaimable as before: this lowers the process's resident set, the budget's measure (README,
// "Memory"), not the machine's page cache; the anonymous part is unchanged.
//
// Only private mappings of a file that are neither writable nor hold a page of their own (no
// Anonymous or Private_Dirty page: the relocated constants, RELRO, are left alone) are dropped, so
// what comes back is exactly the file's bytes.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

export interface Mapping {
  start: bigint;
  end: bigint;
  perms: string;
  path: string;
  /** Resident, its own anonymous (copied-on-write) and private dirty pages, kB. */
  rssKb: number;
  anonymousKb: number;
  privateDirtyKb: number;
}

const HEADER = /^([0-9a-f]+)-([0-9a-f]+) (\S{4}) \S+ \S+ \d+\s*(.*)$/;
const FIELD = /^(Rss|Anonymous|Private_Dirty):\s+(\d+) kB$/;

/** The mappings of a /proc/<pid>/smaps text. */
export function parseSmaps(text: string): Mapping[] {
  const out: Mapping[] = [];
  let cur: Mapping | undefined;
  for (const line of text.split('\n')) {
    const h = HEADER.exec(line);
    if (h) {
      cur = { start: BigInt(`0x${h[1]}`), end: BigInt(`0x${h[2]}`), perms: h[3]!, path: h[4]!, rssKb: 0, anonymousKb: 0, privateDirtyKb: 0 };
      out.push(cur);
      continue;
    }
    const f = FIELD.exec(line);
    if (f && cur) {
      const kb = Number(f[2]);
      if (f[1] === 'Rss') cur.rssKb = kb;
      else if (f[1] === 'Anonymous') cur.anonymousKb = kb;
      else cur.privateDirtyKb = kb;
    }
  }
  return out;
}

/** libchdb's file, or node's executable (`execPath`). */
export function isCodeFile(path: string, execPath: string): boolean {
  return path === execPath || /\/libchdb[^/]*\.so(\.[\d.]+)?$/.test(path);
}

/**
 * The mappings whose resident pages can be dropped and mapped again unchanged: a code file's, private,
 * not writable, with pages resident and none of its own.
 */
export function droppableMappings(maps: readonly Mapping[], execPath: string): Mapping[] {
  return maps.filter((m) => isCodeFile(m.path, execPath) && m.perms[1] !== 'w' && m.perms[3] === 'p' && m.rssKb > 0 && m.anonymousKb === 0 && m.privateDirtyKb === 0);
}

interface Native {
  drop(start: bigint, length: bigint): number;
}

let native: Native | null | undefined;
function loadNative(): Native | null {
  if (native !== undefined) return native;
  try {
    native = createRequire(import.meta.url)(new URL('../../.build/native/code-pages.node', import.meta.url).pathname) as Native;
  } catch {
    native = null; // Not built (no compiler or headers at install): the pages stay mapped.
  }
  return native;
}

/** Whether this process can drop its code pages (Linux, the addon built). */
export function codePagesDroppable(): boolean {
  return process.platform === 'linux' && loadNative() !== null;
}

/** Drops the droppable mappings' pages once: the kB that were resident in them, or null where it cannot. */
export function dropCodePages(): number | null {
  if (process.platform !== 'linux') return null;
  const n = loadNative();
  if (!n) return null;
  let text: string;
  try {
    text = readFileSync('/proc/self/smaps', 'utf8');
  } catch {
    return null;
  }
  let kb = 0;
  for (const m of droppableMappings(parseSmaps(text), process.execPath)) if (n.drop(m.start, m.end - m.start) === 0) kb += m.rssKb;
  return kb;
}

/** Drops them now and every intervalMs (an unref'd timer); returns the stop. */
export function dropCodePagesEvery(intervalMs = 60_000): () => void {
  if (dropCodePages() === null) return () => {};
  const timer = setInterval(dropCodePages, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
