// venue_9 identifiers (spec table "Provider tokens and identifier shapes"): a parent is 0x plus 64
// hex (the group view); a market is a `<parent>:<child>` pair. Pure.
import { HASH64 } from '../shapes.ts';
import type { IdRoute, NativeIdCheck } from '../types.ts';

const V9_PAIR = /^(0x[0-9a-fA-F]{64}):(0x[0-9a-fA-F]{64})$/;

/** Parsed venue_9 id: a bare parent (group view) or a parent:child pair. */
export function parseVenue9Id(id: string): { parent: string; child?: string } | undefined {
  if (HASH64.test(id)) return { parent: id.toLowerCase() };
  const m = V9_PAIR.exec(id);
  return m ? { parent: m[1].toLowerCase(), child: m[2].toLowerCase() } : undefined;
}

export function venue9NativeId(route: IdRoute, id: string): NativeIdCheck {
  const p = parseVenue9Id(id);
  if (!p) return { reject: 'expected a 0x+64-hex parent id or a <parent>:<child> pair' };
  if (route === 'event' && p.child) return { reject: 'a parent:child pair names a market; use GET /v1/markets' };
  return { id: p.child ? `${p.parent}:${p.child}` : p.parent };
}
