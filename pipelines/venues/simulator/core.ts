// Simulator core: seeded hashing, identifier shapes, the scenario clock and the fault controller.
// In: a seed and parts (venue, kind, index). Out: deterministic numbers and the venues' identifier
// shapes ("Provider tokens and identifier shapes"). Procedural ids embed their index under a mask,
// so an id maps back to its index without a table: the catalog stays O(page) at 1,000,000 markets.
import { createHash } from 'node:crypto';
import { PROVIDERS, type Provider } from '../../../lib/vocabulary.ts';

// The simulator's venues are the product's providers: one vocabulary (lib/vocabulary.ts), so a
// simulated record's venue is a Provider wherever the pipeline reads it.
export const VENUES = PROVIDERS;
export type VenueId = Provider;

export function sha(...parts: (string | number)[]): Buffer {
  return createHash('sha256').update(parts.join('\u0001')).digest();
}
/** 32-bit unsigned hash of parts (FNV-1a, then a murmur3 finalizer): fast, not cryptographic. */
export function h32(...parts: (string | number)[]): number {
  let h = 0x811c9dc5;
  for (let k = 0; k < parts.length; k++) {
    const s = String(parts[k]);
    for (let j = 0; j < s.length; j++) {
      h ^= s.charCodeAt(j);
      h = Math.imul(h, 0x01000193);
    }
    h ^= 0x1f;
    h = Math.imul(h, 0x01000193);
  }
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}
/** Uniform in [0,1) from the hash of parts. */
export function unit(...parts: (string | number)[]): number {
  return h32(...parts) / 4294967296;
}
export function pick<T>(arr: readonly T[], ...parts: (string | number)[]): T {
  return arr[h32(...parts) % arr.length];
}
export function hex64(...parts: (string | number)[]): string {
  return '0x' + sha(...parts).toString('hex');
}

/** Seeded PRNG (mulberry32) for sequential generation. */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// ---- invertible hash-shaped ids: 56 hex of hash + 8 hex of (index XOR mask) ----

function mask32(prefix: string): number {
  return h32('mask', prefix);
}
/** `0x` + 64 hex whose last 8 hex carry `i` under a mask derived from the first 56. */
export function hexId(seed: number, space: string, i: number): string {
  const prefix = sha(seed, space, i).toString('hex').slice(0, 56);
  const tail = ((i ^ mask32(prefix)) >>> 0).toString(16).padStart(8, '0');
  return '0x' + prefix + tail;
}
export function hexIndex(seed: number, space: string, id: string): number | null {
  if (!/^0x[0-9a-f]{64}$/.test(id)) return null;
  const prefix = id.slice(2, 58);
  const i = (parseInt(id.slice(58), 16) ^ mask32(prefix)) >>> 0;
  return hexId(seed, space, i) === id ? i : null;
}

/** Long decimal token (~77 digits) carrying `i` in its low 32 bits under a mask. */
export function decToken(seed: number, space: string, i: number): string {
  const hi = BigInt('0x' + sha(seed, space, i).toString('hex').slice(0, 56)) | (1n << 220n);
  const low = BigInt((i ^ mask32(String(hi))) >>> 0);
  return ((hi << 32n) | low).toString(10);
}
export function decTokenIndex(seed: number, space: string, tok: string): number | null {
  if (!/^\d{20,90}$/.test(tok)) return null;
  const v = BigInt(tok);
  const hi = v >> 32n;
  const i = (Number(v & 0xffffffffn) ^ mask32(String(hi))) >>> 0;
  return decToken(seed, space, i) === tok ? i : null;
}

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
/** 26-char ULID: 10 chars of time, 16 chars = 48 hash bits + 32 masked index bits. */
export function ulidId(seed: number, space: string, i: number, timeMs: number): string {
  let time = '';
  let t = Math.max(0, Math.floor(timeMs));
  for (let k = 0; k < 10; k++) {
    time = CROCKFORD[t % 32] + time;
    t = Math.floor(t / 32);
  }
  const h = sha(seed, space, i);
  const hi = BigInt('0x' + h.toString('hex').slice(0, 12)); // 48 bits
  const low = BigInt((i ^ h32('umask', seed, space, time)) >>> 0);
  let v = (hi << 32n) | low;
  let rand = '';
  for (let k = 0; k < 16; k++) {
    rand = CROCKFORD[Number(v & 31n)] + rand;
    v >>= 5n;
  }
  return time + rand;
}
export function ulidIndex(
  seed: number,
  space: string,
  id: string,
  timeOf: (i: number) => number,
): number | null {
  if (!/^[0-9A-HJKMNP-TV-Z]{26}$/.test(id)) return null;
  const time = id.slice(0, 10);
  let v = 0n;
  for (const c of id.slice(10)) v = (v << 5n) | BigInt(CROCKFORD.indexOf(c));
  const i = (Number(v & 0xffffffffn) ^ h32('umask', seed, space, time)) >>> 0;
  return ulidId(seed, space, i, timeOf(i)) === id ? i : null;
}

export function base36(i: number): string {
  return i.toString(36);
}

// ---- clock ----

export interface SimClock {
  now(): number;
  set(ms: number): void;
  advance(ms: number): void;
}
/** Scenario clock: starts at `start` and runs with wall time unless frozen. */
export function createClock(start: number = Date.now(), opts: { frozen?: boolean } = {}): SimClock {
  let base = start;
  let wallAt = Date.now();
  const frozen = opts.frozen ?? false;
  return {
    now: () => (frozen ? base : base + (Date.now() - wallAt)),
    set(ms: number) {
      base = ms;
      wallAt = Date.now();
    },
    advance(ms: number) {
      base = (frozen ? base : base + (Date.now() - wallAt)) + ms;
      wallAt = Date.now();
    },
  };
}

// ---- faults ----

export type FaultKind = 'down' | 'refuse' | 'slow' | 'rate_limit' | 'malformed' | 'reject';
export interface Fault {
  kind: FaultKind;
  /** For `slow`: delay before answering; default 12 000 ms (beyond the spec's 9 s deadline). */
  delay_ms?: number;
  /** For `rate_limit`: seconds in `Retry-After`; absent means no header. */
  retry_after_s?: number;
  /** Restrict the fault to request paths containing this substring. */
  paths?: string;
}
export interface FaultController {
  set(venue: VenueId, fault: Fault | null): void;
  get(venue: VenueId): Fault | undefined;
  clear(): void;
  list(): Partial<Record<VenueId, Fault>>;
}
export const FAULT_KINDS: readonly FaultKind[] = ['down', 'refuse', 'slow', 'rate_limit', 'malformed', 'reject'];

export function createFaults(): FaultController {
  const m = new Map<VenueId, Fault>();
  return {
    set(venue, fault) {
      if (!fault) m.delete(venue);
      else {
        if (!FAULT_KINDS.includes(fault.kind)) throw new Error(`unknown fault kind "${fault.kind}"`);
        m.set(venue, fault);
      }
    },
    get: (venue) => m.get(venue),
    clear: () => m.clear(),
    list: () => Object.fromEntries(m),
  };
}

// ---- small formatting helpers ----

const MON = ['JAN', 'FEB', 'MAR', 'APR', 'MAY', 'JUN', 'JUL', 'AUG', 'SEP', 'OCT', 'NOV', 'DEC'];
const MON_T = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const MON_L = [
  'January', 'February', 'March', 'April', 'May', 'June',
  'July', 'August', 'September', 'October', 'November', 'December',
];

/** Wall-clock parts of `ms` in America/New_York. */
let ET: Intl.DateTimeFormat | undefined;
const ET_CACHE = new Map<number, { y: number; mo: number; d: number; h: number; mi: number; date: string }>();
export function eastern(ms: number): { y: number; mo: number; d: number; h: number; mi: number; date: string } {
  const minute = Math.floor(ms / 60_000);
  const hit = ET_CACHE.get(minute);
  if (hit) return hit;
  if (ET_CACHE.size > 50_000) ET_CACHE.clear();
  const f = (ET ??= new Intl.DateTimeFormat('en-US', {
    timeZone: 'America/New_York',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }));
  const p: Record<string, string> = {};
  for (const x of f.formatToParts(new Date(ms))) p[x.type] = x.value;
  const y = +p.year, mo = +p.month, d = +p.day;
  const out = { y, mo, d, h: +p.hour, mi: +p.minute, date: `${p.year}-${p.month}-${p.day}` };
  ET_CACHE.set(minute, out);
  return out;
}
/** UTC ms of an Eastern wall-clock time. */
export function fromEastern(date: string, h: number, mi: number): number {
  const [y, mo, d] = date.split('-').map(Number);
  let guess = Date.UTC(y, mo - 1, d, h + 5, mi);
  for (let k = 0; k < 2; k++) {
    const e = eastern(guess);
    const diff = Date.UTC(e.y, e.mo - 1, e.d, e.h, e.mi) - Date.UTC(y, mo - 1, d, h, mi);
    guess -= diff;
  }
  return guess;
}
export function utcDate(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}
export function iso(ms: number): string {
  return new Date(ms).toISOString().replace('.000Z', 'Z');
}
/** `26NOV21` from `2026-11-21`. */
export function yymmmdd(date: string): string {
  const [y, m, d] = date.split('-');
  return y.slice(2) + MON[+m - 1] + d;
}
export function monthDay(date: string, long = false): string {
  const [y, m, d] = date.split('-');
  return long ? `${MON_L[+m - 1]} ${+d}, ${y}` : `${MON_T[+m - 1]} ${+d}`;
}
export function round2(x: number): number {
  return Math.round(x * 100) / 100;
}
export function clampP(p: number): number {
  return Math.min(0.97, Math.max(0.03, p));
}
export function kebab(s: string): string {
  return s
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}
