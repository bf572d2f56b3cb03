// Wallet profile and positions, the pure part (spec: "GET /v1/marketplace/wallet",
// "GET /v1/marketplace/wallet/positions", "Wallet profile", "Wallet position"). In: the raw query
// and the venue's native profile/position records. Out: which wallet to read (by address or by
// username), the positions page plan, and the response bodies. The route does the venue reads.
import { ApiError, quote } from '../errors.ts';
import { cursorInt, cursorString, decodeCursor, encodeCursor, one, parseLimit } from './cursor.ts';
import type { RawQuery } from '../types.ts';
import type { CursorCodec } from '../../lib/cursor.ts';

export const ADDRESS = /^0x[a-fA-F0-9]{40}$/;

export type WalletKey = { by: 'address'; address: string } | { by: 'username'; username: string };

/** "exactly one required (both is 400)"; address pattern; username "leading @ stripped". */
export function parseWalletKey(query: RawQuery): WalletKey {
  const address = one(query.address);
  const username = one(query.username);
  if (address !== undefined && username !== undefined) {
    throw new ApiError('invalid_parameter', `send either address or username, not both (got address ${quote(address)} and username ${quote(username)})`, {
      param: 'username',
    });
  }
  if (address === undefined && username === undefined) {
    throw new ApiError('missing_parameter', 'address or username is required', { param: 'address' });
  }
  if (address !== undefined) {
    if (!ADDRESS.test(address)) {
      throw new ApiError('invalid_parameter', `address ${quote(address)} is not 0x followed by 40 hex digits`, { param: 'address' });
    }
    return { by: 'address', address: address.toLowerCase() };
  }
  const stripped = username!.startsWith('@') ? username!.slice(1) : username!;
  if (stripped.trim().length < 1) {
    throw new ApiError('invalid_parameter', `username ${quote(username)} is empty once the leading @ is removed`, { param: 'username' });
  }
  return { by: 'username', username: stripped };
}

/** The venue's native profile record (camelCase, proxyWallet). */
export interface NativeProfile {
  proxyWallet: string;
  name?: string | null;
  pseudonym?: string | null;
  profileImage?: string | null;
}

export function isNativeProfile(v: unknown): v is NativeProfile {
  const r = v as Record<string, unknown> | null;
  return !!r && typeof r === 'object' && typeof r.proxyWallet === 'string' && ADDRESS.test(r.proxyWallet);
}

/** "case-insensitive exact match"; a fuzzy-only search result is no match (404). */
export function exactUsernameMatch(username: string, candidates: readonly NativeProfile[]): NativeProfile | undefined {
  const want = username.toLowerCase();
  return candidates.find((p) => typeof p.name === 'string' && p.name.toLowerCase() === want);
}

export function profileBody(p: NativeProfile, signer: string | null) {
  return {
    address: p.proxyWallet.toLowerCase(),
    signer,
    profile_image: p.profileImage ?? '',
    display_name: p.name || p.pseudonym || '',
  };
}

export interface PositionsPlan {
  key: WalletKey;
  offset: number;
  limit: number;
  cursorRaw?: string;
  /** The wallet the cursor was issued for (lower case). */
  cursorWallet?: string;
}

const WALLET = /^0x[a-f0-9]{40}$/;
const MAX_LIMIT = 100;

/** limit 1..100 default 50 "applies to the first page only"; "page size comes from the cursor". */
export function planPositions(query: RawQuery, cursors: CursorCodec): PositionsPlan {
  const key = parseWalletKey(query);
  const limit = parseLimit(one(query.limit), 50, MAX_LIMIT);
  const cursorRaw = one(query.cursor);
  if (cursorRaw === undefined) return { key, offset: 0, limit };
  const fields = decodeCursor(cursors, 'positions', cursorRaw);
  return {
    key,
    cursorWallet: cursorString(fields, 0, cursorRaw, WALLET),
    offset: cursorInt(fields, 1, cursorRaw),
    limit: cursorInt(fields, 2, cursorRaw, 1, MAX_LIMIT),
    cursorRaw,
  };
}

/** "cursor (bound to the resolved wallet; another wallet is 400)". */
export function checkCursorWallet(plan: PositionsPlan, wallet: string): void {
  if (plan.cursorRaw === undefined) return;
  if (plan.cursorWallet !== wallet.toLowerCase()) {
    throw new ApiError('invalid_cursor', `cursor ${quote(plan.cursorRaw)} was issued for another wallet, not ${wallet.toLowerCase()}`, {
      param: 'cursor',
    });
  }
}

export interface NativePosition {
  conditionId: string;
  outcome: string;
  size: number;
  [k: string]: unknown;
}

export function isNativePosition(v: unknown): v is NativePosition {
  const r = v as Record<string, unknown> | null;
  return !!r && typeof r === 'object' && typeof r.conditionId === 'string' && typeof r.outcome === 'string' && typeof r.size === 'number';
}

/** Body of a page from up to limit+1 native rows (the extra one only says a further page exists). */
export function positionsBody(plan: PositionsPlan, wallet: string, rows: readonly NativePosition[], cursors: CursorCodec) {
  const hasMore = rows.length > plan.limit;
  const page = rows.slice(0, plan.limit);
  const pagination: { limit: number; total: null; has_more: boolean; next_cursor?: string } = {
    limit: plan.limit,
    total: null, // "pagination.total always null"
    has_more: hasMore,
  };
  if (hasMore) pagination.next_cursor = encodeCursor(cursors, 'positions', [wallet.toLowerCase(), plan.offset + plan.limit, plan.limit]);
  return {
    address: wallet.toLowerCase(),
    data: page.map((p) => {
      const row: Record<string, unknown> = { condition_id: p.conditionId.toLowerCase(), outcome: p.outcome, shares: p.size };
      // Further position fields are additive (spec: "Versioning").
      if (typeof p.outcomeIndex === 'number') row.outcome_index = p.outcomeIndex;
      if (typeof p.asset === 'string') row.token_id = p.asset;
      if (typeof p.title === 'string') row.title = p.title;
      if (typeof p.avgPrice === 'number') row.avg_price = p.avgPrice;
      if (typeof p.curPrice === 'number') row.cur_price = p.curPrice;
      return row;
    }),
    pagination,
  };
}
