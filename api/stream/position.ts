// Event ids of the push stream: a log position, so a client that reconnects with Last-Event-ID
// resumes from it on any replica. In: the partitions the hub tails, in a fixed order, and the next
// offset of each after the event. Out: `<layout>-<time>-<o1>.<o2>...` (base 36), where <layout> is
// a short hash of the topic names and partition counts (an id from another deployment or topic
// layout is not a position here) and <time> is when the event was sent (a resume older than the
// window is answered with a `reset`: compaction may have dropped a removal's tombstone since).
import { createHash } from 'node:crypto';

export interface Layout {
  /** `<topic>|<partition>` in id order. */
  readonly parts: readonly string[];
  readonly index: ReadonlyMap<string, number>;
  readonly tag: string;
}

export function layoutOf(topics: ReadonlyArray<{ name: string; partitions: number }>): Layout {
  const parts: string[] = [];
  for (const t of topics) for (let p = 0; p < t.partitions; p++) parts.push(`${t.name}|${p}`);
  // Hex: the id's fields are separated by '-', which base64url may contain.
  const tag = createHash('sha256').update(parts.join(',')).digest('hex').slice(0, 8);
  return { parts, index: new Map(parts.map((k, i) => [k, i])), tag };
}

/**
 * How far ahead of this process's clock an id's time may be (another replica's clock): beyond it the
 * time is no evidence of the id's age, and the id is not resumed (`reset`).
 */
export const CLOCK_SKEW_MS = 60_000;

/** Whether an id issued at `at` may be resumed at `now` within `resumeMs`. */
export function inWindow(at: number, now: number, resumeMs: number): boolean {
  return now - at <= resumeMs && at - now <= CLOCK_SKEW_MS;
}

export function encodeId(layout: Layout, at: number, pos: readonly number[]): string {
  let s = `${layout.tag}-${at.toString(36)}-`;
  for (let i = 0; i < pos.length; i++) s += (i ? '.' : '') + pos[i]!.toString(36);
  return s;
}

const DIGITS = /^[0-9a-z]{1,12}$/;

/** The position and time an id names, or null when it is not an id of this layout. */
export function decodeId(layout: Layout, id: string): { at: number; pos: number[] } | null {
  const parts = id.split('-');
  if (parts.length !== 3 || parts[0] !== layout.tag || !DIGITS.test(parts[1]!)) return null;
  const offs = parts[2]!.split('.');
  if (offs.length !== layout.parts.length || !offs.every((o) => DIGITS.test(o))) return null;
  return { at: parseInt(parts[1]!, 36), pos: offs.map((o) => parseInt(o, 36)) };
}

/** Component-wise maximum (a resumed client has everything below either). */
export function maxPos(a: readonly number[], b: readonly number[]): number[] {
  return a.map((x, i) => Math.max(x, b[i]!));
}

export function covers(a: readonly number[], b: readonly number[]): boolean {
  for (let i = 0; i < a.length; i++) if (a[i]! < b[i]!) return false;
  return true;
}

/**
 * When a hub has read what the log held at its start: `target` is the high watermarks then (one per
 * layout partition), check() is called with the hub's position after each batch, and wait() resolves
 * true once covered, or false after `ms`. Both hubs (sports and quotes) answer 503 until then.
 */
export class CatchUp {
  private done = false;
  private readonly waiters: Array<() => void> = [];
  private target: readonly number[] | null = null;

  setTarget(target: readonly number[], pos: readonly number[]): void {
    this.target = target;
    this.check(pos);
  }

  check(pos: readonly number[]): void {
    if (this.done || !this.target || !covers(pos, this.target)) return;
    this.done = true;
    for (const w of this.waiters.splice(0)) w();
  }

  wait(ms: number): Promise<boolean> {
    if (this.done) return Promise.resolve(true);
    return new Promise((resolve) => {
      const t = setTimeout(() => resolve(false), ms);
      this.waiters.push(() => {
        clearTimeout(t);
        resolve(true);
      });
    });
  }
}

/**
 * Resumes waiting for a hub to read as far as the id they sent names. An id ahead of this hub is
 * either another replica's, which read a little further (this one gets there within moments), or
 * from past the end of the log (a log recreated since, with the same topics): that one is never
 * reached, and the wait ends false after `ms` (the client then gets `reset` and a snapshot).
 */
export class Reach {
  private readonly waiting = new Set<{ pos: readonly number[]; done: (ok: boolean) => void }>();

  wait(current: readonly number[], pos: readonly number[], ms: number): Promise<boolean> {
    if (covers(current, pos)) return Promise.resolve(true);
    return new Promise((resolve) => {
      const w = {
        pos,
        done: (ok: boolean) => {
          clearTimeout(t);
          this.waiting.delete(w);
          resolve(ok);
        },
      };
      const t = setTimeout(() => w.done(false), ms);
      t.unref();
      this.waiting.add(w);
    });
  }

  check(current: readonly number[]): void {
    for (const w of [...this.waiting]) if (covers(current, w.pos)) w.done(true);
  }

  /** Every wait ends false (the hub stops). */
  stop(): void {
    for (const w of [...this.waiting]) w.done(false);
  }
}

/**
 * Ids as a connection sends them: the log position, then `~` and a short hash of the subscription
 * (the sports filters, the quotes channel's markets). A position says what a client has of the log,
 * not which events it holds: resumed under another subscription, it would never get the events of
 * the new one that did not change since. So an id of another subscription gets `reset` and a snapshot.
 */
export function subscriptionTag(subscription: string): string {
  return createHash('sha256').update(subscription).digest('hex').slice(0, 8);
}

export const tagged = (id: string, tag: string): string => (id === '' ? '' : `${id}~${tag}`);

/** An id's position part, and whether it was issued to this subscription (an id without a tag: yes, as issued before tags). */
export function untag(id: string, tag: string): { id: string; ours: boolean } {
  const i = id.lastIndexOf('~');
  return i === -1 ? { id, ours: true } : { id: id.slice(0, i), ours: id.slice(i + 1) === tag };
}
