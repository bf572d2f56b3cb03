// Listing pages over "sports records, then the procedural catalog". In: the open sports records,
// the procedural space, a position and a page size. Out: one page and the next position, in
// O(page) whatever the depth (a procedural position is an index, not a scan).
import { type ProcSpace, openLo } from './procedural.ts';

/** A position in a listing: `s` indexes the sports records, `p` is a procedural index. */
export type Pos = { s: number } | { p: number };

export function encodePos(pos: Pos): string {
  return Buffer.from('s' in pos ? `s${pos.s}` : `p${pos.p}`).toString('base64url');
}
export function decodePos(c: string | undefined): Pos | null {
  if (!c) return { s: 0 };
  const raw = Buffer.from(c, 'base64url').toString();
  const m = /^([sp])(\d{1,10})$/.exec(raw);
  if (!m) return null;
  return m[1] === 's' ? { s: +m[2] } : { p: +m[2] };
}
/** An offset counts sports rows first, then procedural rows from the current open window. */
export function offsetPos(offset: number, sportsCount: number, sp: ProcSpace | Window | null, t: number): Pos {
  if (offset < sportsCount || !sp) return { s: offset };
  const lo = 'venue' in sp ? openLo(sp, t) : sp.lo;
  return { p: lo + (offset - sportsCount) };
}

/** The open procedural window [lo, hi) at time t, optionally grouped (G markets per group). */
export interface Window {
  lo: number;
  hi: number;
}
export function windowOf(sp: ProcSpace | null, t: number, group = 1): Window | null {
  if (!sp) return null;
  const lo = openLo(sp, t);
  return { lo: Math.floor(lo / group), hi: Math.ceil((lo + sp.count) / group) };
}

export function page<S, R>(
  sports: S[],
  sp: ProcSpace | Window | null,
  t: number,
  pos: Pos,
  limit: number,
  renderProc: (i: number) => R,
): { items: (S | R)[]; next: Pos | null } {
  const w: Window | null = sp && 'venue' in sp ? windowOf(sp, t) : (sp as Window | null);
  const items: (S | R)[] = [];
  let p: number;
  if ('s' in pos) {
    let s = pos.s;
    while (s < sports.length && items.length < limit) items.push(sports[s++]);
    if (items.length === limit) return { items, next: s < sports.length || (w && w.hi > w.lo) ? { s } : null };
    if (!w) return { items, next: null };
    p = w.lo;
  } else {
    if (!w) return { items, next: null };
    p = Math.max(pos.p, w.lo);
  }
  while (p < w.hi && items.length < limit) items.push(renderProc(p++));
  return { items, next: p < w.hi ? { p } : null };
}

export function intParam(v: unknown, def: number, min: number, max: number): number | null {
  if (v === undefined || v === '') return def;
  const n = Number(v);
  if (!Number.isInteger(n) || n < min || n > max) return null;
  return n;
}
