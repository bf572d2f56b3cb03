// GET /v1/marketplace/wallet and GET /v1/marketplace/wallet/positions (spec: the two endpoints,
// "Wallet profile", "Wallet position"). The marketplace is venue_2. Parameter rules, cursors and
// bodies are pure (api/live/wallet.ts); these handlers do the venue reads under the request
// deadline: an address is read as a proxy and, in parallel, as a signer EOA's deterministic proxy
// (pipelines/venues/client/proxy.ts); a username goes through the venue's fuzzy search and only a
// case-insensitive exact match counts.
import { ApiError, quote } from '../../errors.ts';
import type { RouteContext, RouteHandler } from '../../types.ts';
import { cursorCodec } from '../../../lib/cursor.ts';
import { NOT_FOUND, type VenueHttp } from '../../../pipelines/venues/client/http.ts';
import { proxyFor } from '../../../pipelines/venues/client/proxy.ts';
import { guarded, liveDeps } from '../../live/io.ts';
import { isRec } from '../../../pipelines/venues/adapters/native.ts';
import {
  checkCursorWallet,
  exactUsernameMatch,
  isNativePosition,
  isNativeProfile,
  parseWalletKey,
  planPositions,
  positionsBody,
  profileBody,
  type NativePosition,
  type NativeProfile,
} from '../../live/wallet.ts';

const VENUE = 'venue_2';

async function profileAt(http: VenueHttp, address: string, signal: AbortSignal): Promise<NativeProfile | null> {
  const r = await http.getJson(VENUE, '/venue_2/public-profile', { address }, signal);
  if (r === NOT_FOUND) return null;
  if (!isNativeProfile(r)) throw new ApiError('upstream_unavailable', `${VENUE} gave no valid answer: malformed profile`);
  return r;
}

/**
 * The profiles of a search answer ({profiles: [...]}). An object without `profiles` (or with null)
 * is an empty search; anything else (not an object, a `profiles` that is no list, an error object)
 * is no valid answer: 502, not "no matching" (404), which would tell the client the name is free.
 */
function searchHits(r: unknown): NativeProfile[] {
  if (!isRec(r)) throw new ApiError('upstream_unavailable', `${VENUE} gave no valid answer: the profile search is not an object`);
  if (r.profiles === undefined || r.profiles === null) {
    if (r.error !== undefined) throw new ApiError('upstream_unavailable', `${VENUE} gave no valid answer: the profile search answered an error`);
    return [];
  }
  if (!Array.isArray(r.profiles)) throw new ApiError('upstream_unavailable', `${VENUE} gave no valid answer: the profile search has no profiles list`);
  return r.profiles.filter(isNativeProfile);
}

async function profileByUsername(http: VenueHttp, username: string, signal: AbortSignal): Promise<NativeProfile> {
  const r = await http.getJson(VENUE, '/venue_2/profiles/search', { q: username }, signal);
  const list = r === NOT_FOUND ? [] : searchHits(r);
  const hit = exactUsernameMatch(username, list);
  // "No matching or only fuzzy match: 404 profile_not_found"
  if (!hit) throw new ApiError('profile_not_found', `no profile has the username ${quote(username)}`, { param: 'username' });
  return hit;
}

function notFound(address: string): ApiError {
  return new ApiError('profile_not_found', `no profile for address ${quote(address)} (as a proxy wallet or as a signer)`, { param: 'address' });
}

export const walletProfile: RouteHandler = async (ctx: RouteContext) => {
  const key = parseWalletKey(ctx.query);
  const http = liveDeps(ctx).venues;
  if (key.by === 'username') {
    const p = await guarded(VENUE, profileByUsername(http, key.username, ctx.signal));
    return { body: profileBody(p, null) };
  }
  // Proxy or signer: read the address itself and its deterministic proxy at once.
  const proxy = proxyFor(key.address);
  const [asProxy, asSigner] = await Promise.all([profileAt(http, key.address, ctx.signal), profileAt(http, proxy, ctx.signal)]);
  if (asProxy) return { body: profileBody(asProxy, null) };
  if (asSigner) return { body: profileBody(asSigner, key.address) };
  throw notFound(key.address);
};

export const walletPositions: RouteHandler = async (ctx: RouteContext) => {
  const cursors = cursorCodec(ctx.deps.config.CATALOG_CURSOR_SECRET);
  const plan = planPositions(ctx.query, cursors);
  const http = liveDeps(ctx).venues;
  // "An EOA passed as address yields an empty data (no resolution is performed)."
  const wallet = plan.key.by === 'address' ? plan.key.address : (await guarded(VENUE, profileByUsername(http, plan.key.username, ctx.signal))).proxyWallet.toLowerCase();
  checkCursorWallet(plan, wallet);
  const r = await http.getJson(VENUE, '/venue_2/positions', { user: wallet, limit: plan.limit + 1, offset: plan.offset }, ctx.signal);
  if (r !== NOT_FOUND && !Array.isArray(r)) throw new ApiError('upstream_unavailable', `${VENUE} gave no valid answer: malformed positions`);
  // A position that cannot be read is no valid answer either: left out, its page would be short
  // of it (and of has_more) without saying so.
  const rows: NativePosition[] = r === NOT_FOUND ? [] : r.every(isNativePosition) ? r : [];
  if (r !== NOT_FOUND && rows.length !== r.length) throw new ApiError('upstream_unavailable', `${VENUE} gave no valid answer: a position without conditionId, outcome or size`);
  return { body: positionsBody(plan, wallet, rows, cursors) };
};
