// Catalog cursors (spec: "GET /v1/markets", "cursors are bound to the catalog snapshot and to
// `category` and `provider`"), sealed by the API's one cursor codec (lib/cursor.ts).
// In: the position of the next page's first row plus the snapshot and filters it was read under.
// Out: an opaque signed string; decoding returns the position, 'retired' for a cursor of the earlier
// keyset form (its snapshot has no pages in the SnapshotStore), or null for anything that is not a
// catalog cursor this service issued.
// The position is an offset in the filtered list of one immutable snapshot: the snapshot's pages
// are laid out in fixed chunks (pages.ts), so any offset is a keyed read, as cheap deep as shallow.
import { cursorCodec } from '../../lib/cursor.ts';

export interface CatalogCursor {
  /** Snapshot the position belongs to. */
  snapshotId: string;
  /** Filters the position was issued under (null: not sent). Lower-case tokens. */
  category: string | null;
  provider: string | null;
  /** Offset of the next page's first row in the filtered list of that snapshot. */
  offset: number;
}

const ROUTE = 'markets';
/** Fields of the earlier keyset form: [snapshotId, category, provider, pos, id]. */
const RETIRED_FIELDS = 5;

export function createCursorCodec(secret: string) {
  const codec = cursorCodec(secret);
  return {
    encode(c: CatalogCursor): string {
      return codec.seal(ROUTE, [c.snapshotId, c.category, c.provider, c.offset]);
    },
    /** null when malformed, forged, or issued by another endpoint; 'retired' for a keyset cursor. */
    decode(text: string): CatalogCursor | 'retired' | null {
      const c = codec.open(text);
      if (c === null || c.route !== ROUTE) return null;
      if (c.fields.length === RETIRED_FIELDS) return 'retired';
      if (c.fields.length !== 4) return null;
      const [snapshotId, category, provider, offset] = c.fields;
      if (typeof snapshotId !== 'string') return null;
      if (category !== null && typeof category !== 'string') return null;
      if (provider !== null && typeof provider !== 'string') return null;
      if (!Number.isInteger(offset) || (offset as number) < 0) return null;
      return { snapshotId, category, provider, offset: offset as number };
    },
  };
}
export type CursorCodec = ReturnType<typeof createCursorCodec>;
