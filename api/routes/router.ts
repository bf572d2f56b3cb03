// Router-level checks of the spec ("Endpoints: Router-level behavior"), pure functions over the
// route table (api/routes/table.ts). In: the raw query string and the RouteSpec the path matched.
// Out: the decoded query (RawQuery) and, after authentication, the typed query (TypedQuery), or
// an ApiError from the one catalog. Fastify's querystring parser is not used: it would silently
// accept `;` separators and broken `%` escapes, which the spec requires us to reject.
import { ApiError, apiErrorFromItems, quote, type ErrorItem } from '../errors.ts';
import type { RawQuery, TypedQuery } from '../types.ts';
import type { ParamSpec, RouteSpec } from './table.ts';

const BAD_PERCENT = /%(?![0-9A-Fa-f]{2})/;
const PLUS = /\+/g;

/** Query-string names under which clients commonly (and wrongly) send a key. */
export const CREDENTIAL_PARAMS: ReadonlySet<string> = new Set(['api_key', 'apikey', 'key', 'access_token', 'token', 'api-key']);

/** A query name a key is commonly sent under, in any case (`API_KEY`, `Token`). */
export const isCredentialParam = (name: string): boolean => CREDENTIAL_PARAMS.has(name.toLowerCase());

/** What an error body shows of a credential parameter's value: never the key itself. */
export const REDACTED = '[redacted]';

function decode(s: string): string | undefined {
  if (s.indexOf('%') === -1 && s.indexOf('+') === -1) return s;
  try {
    return decodeURIComponent(s.replace(PLUS, ' '));
  } catch {
    return undefined; // a valid escape that is not UTF-8 (e.g. %C3%28)
  }
}

/** A malformed pair as quoted back: a key sent in the query string is not, even there (each `;` part checked). */
function redactPair(seg: string): string {
  return seg
    .split(';')
    .map((part) => {
      const eq = part.indexOf('=');
      const rawName = eq === -1 ? part : part.slice(0, eq);
      return isCredentialParam(decode(rawName) ?? rawName) ? `${rawName}=${REDACTED}` : part;
    })
    .join(';');
}

/** Why a percent-encoded text does not decode: a broken escape, or escapes that are not UTF-8. */
export function undecodableWhy(text: string): string {
  return BAD_PERCENT.test(text)
    ? '"%" must be followed by two hex digits'
    : 'its percent-escapes do not decode to valid UTF-8 (e.g. %C3%28)';
}

/**
 * Split a raw query string (without the `?`) into decoded [key, value] pairs, in order.
 * "A query string that is not &-separated percent-encoded key=value pairs (a `;` separator, or `%`
 * not followed by two hex digits): 400 invalid_parameter quoting the pair."
 * Empty segments (`a=1&&b=2`, a trailing `&`) are skipped; a key without `=` has the empty value.
 */
export function parseQueryString(qs: string): Array<[string, string]> {
  const pairs: Array<[string, string]> = [];
  if (qs.length === 0) return pairs;
  let bad: ErrorItem[] | undefined;
  let start = 0;
  while (start <= qs.length) {
    let end = qs.indexOf('&', start);
    if (end === -1) end = qs.length;
    const seg = qs.slice(start, end);
    start = end + 1;
    if (seg.length === 0) continue;
    const eq = seg.indexOf('=');
    const rawKey = eq === -1 ? seg : seg.slice(0, eq);
    const rawVal = eq === -1 ? '' : seg.slice(eq + 1);
    let key: string | undefined;
    let val: string | undefined;
    const semi = seg.indexOf(';') !== -1;
    if (!semi && !BAD_PERCENT.test(seg)) {
      key = decode(rawKey);
      val = decode(rawVal);
    }
    if (key === undefined || val === undefined || key.length === 0) {
      const why = semi ? 'pairs are separated by "&" only' : key !== undefined && key.length === 0 && val !== undefined ? 'the key is empty' : undecodableWhy(seg);
      const shown = redactPair(seg);
      (bad ??= []).push({
        param: key ?? rawKey,
        value: shown,
        message: `malformed query string: the pair ${quote(shown)} is not a percent-encoded key=value pair (${why})`,
      });
      continue;
    }
    pairs.push([key, val]);
  }
  if (bad) {
    const first = bad[0];
    throw new ApiError('invalid_parameter', first.message, { errors: bad.length > 1 ? bad : undefined });
  }
  return pairs;
}

/** Precomputed per-route lookups so the hot path does no string building. */
export interface CompiledRoute {
  spec: RouteSpec;
  byName: Map<string, ParamSpec>;
  accepted: string;
}

export function compileRoute(spec: RouteSpec): CompiledRoute {
  const byName = new Map(spec.params.map((p) => [p.name, p] as const));
  const names = spec.params.map((p) => p.name);
  const accepted = names.length === 0 ? 'this route accepts no query parameters' : `accepted parameters: ${names.join(', ')}`;
  return { spec, byName, accepted };
}

/**
 * The router-level parameter checks, before the key is read: unknown and retired keys
 * (400 unknown_parameter, every one listed in errors[]), then repeated parameters and empty
 * filters/identifiers (400 invalid_parameter). Returns the decoded query: a repeatable parameter
 * as an array, every other one as a single string.
 */
export function checkParams(route: CompiledRoute, pairs: Array<[string, string]>): RawQuery {
  const query: RawQuery = {};
  if (pairs.length === 0) return query;
  let unknown: ErrorItem[] | undefined;
  let invalid: ErrorItem[] | undefined;
  let repeated: Map<string, string[]> | undefined;
  for (const [key, value] of pairs) {
    const p = route.byName.get(key);
    if (p === undefined) {
      const replacement = route.spec.retired?.[key];
      (unknown ??= []).push({
        param: key,
        value: isCredentialParam(key) ? REDACTED : value,
        message:
          replacement !== undefined
            ? `parameter ${quote(key)} is retired: ${replacement}; ${route.accepted}`
            : `unknown parameter ${quote(key)}; ${route.accepted}`,
      });
      continue;
    }
    if (p.nonEmpty && value.length === 0) {
      (invalid ??= []).push({ param: key, value, message: `parameter ${quote(key)} must not be empty` });
    }
    const prev = query[key];
    if (p.repeatable) {
      if (prev === undefined) query[key] = [value];
      else (prev as string[]).push(value);
    } else if (prev === undefined) {
      query[key] = value;
    } else {
      repeated ??= new Map();
      const seen = repeated.get(key);
      if (seen) seen.push(value);
      else repeated.set(key, [prev as string, value]);
    }
  }
  if (unknown) throw apiErrorFromItems('unknown_parameter', unknown);
  if (repeated) {
    for (const [key, values] of repeated) {
      (invalid ??= []).push({
        param: key,
        value: values,
        message: `parameter ${quote(key)} was sent ${values.length} times (${values.map(quote).join(', ')}); send it once`,
      });
    }
  }
  if (invalid) throw apiErrorFromItems('invalid_parameter', invalid);
  return query;
}

const INTEGER = /^-?\d+$/;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

function isCalendarDate(s: string): boolean {
  const m = DATE.exec(s);
  if (!m) return false;
  const y = Number(m[1]);
  const mo = Number(m[2]);
  const d = Number(m[3]);
  if (mo < 1 || mo > 12 || d < 1) return false;
  const days = new Date(Date.UTC(y, mo, 0)).getUTCDate();
  return d <= days;
}

function rangeText(p: ParamSpec): string {
  if (p.min !== undefined && p.max !== undefined) return ` from ${p.min} to ${p.max}`;
  if (p.min !== undefined) return ` of at least ${p.min}`;
  if (p.max !== undefined) return ` of at most ${p.max}`;
  return '';
}

/** One value against its declared type; returns the typed value or an error message. */
function typeValue(p: ParamSpec, v: string): { ok: true; value: string | number | boolean } | { ok: false; message: string } {
  switch (p.type) {
    case 'int64': {
      // Unix ms: past ±2^53 is clamped, not refused (the route clamps negatives to 0 itself).
      if (!INTEGER.test(v)) return { ok: false, message: `${p.name} must be an integer; got ${quote(v)}` };
      const n = Number(v);
      return { ok: true, value: Math.min(Math.max(n, Number.MIN_SAFE_INTEGER), Number.MAX_SAFE_INTEGER) };
    }
    case 'integer': {
      const n = INTEGER.test(v) ? Number(v) : NaN;
      if (!Number.isSafeInteger(n) || (p.min !== undefined && n < p.min) || (p.max !== undefined && n > p.max)) {
        return { ok: false, message: `${p.name} must be an integer${rangeText(p)}; got ${quote(v)}` };
      }
      return { ok: true, value: n };
    }
    case 'boolean': {
      // "include_rules: empty value means false; non-boolean is 400": empty means the default.
      if (v === '') return { ok: true, value: p.default === true };
      const l = v.toLowerCase();
      if (l === 'true') return { ok: true, value: true };
      if (l === 'false') return { ok: true, value: false };
      return { ok: false, message: `${p.name} must be true or false; got ${quote(v)}` };
    }
    case 'enum': {
      // "A query parameter documented as an enumeration is matched case-insensitively."
      const l = v.toLowerCase();
      if (p.values?.includes(l)) return { ok: true, value: l };
      return { ok: false, message: `${p.name} must be one of ${(p.values ?? []).join(', ')}; got ${quote(v)}` };
    }
    case 'date':
      if (isCalendarDate(v)) return { ok: true, value: v };
      return { ok: false, message: `${p.name} must be a real calendar date YYYY-MM-DD; got ${quote(v)}` };
    default:
      return { ok: true, value: v };
  }
}

/**
 * The generic value checks of declared parameters (integer ranges, booleans, enums, dates), run
 * after authentication; every problem is listed in errors[]. Handlers add their own checks.
 */
export function typeParams(route: CompiledRoute, query: RawQuery): TypedQuery {
  const typed: TypedQuery = {};
  let invalid: ErrorItem[] | undefined;
  for (const p of route.spec.params) {
    const raw = query[p.name];
    if (raw === undefined) {
      if (p.default !== undefined) typed[p.name] = p.default;
      continue;
    }
    if (Array.isArray(raw)) {
      typed[p.name] = raw;
      continue;
    }
    const r = typeValue(p, raw);
    if (r.ok) typed[p.name] = r.value;
    else (invalid ??= []).push({ param: p.name, value: raw, message: r.message });
  }
  if (invalid) throw apiErrorFromItems('invalid_parameter', invalid);
  return typed;
}

/**
 * Path params: an empty identifier segment is a trailing slash (`/v1/markets/`), which is
 * 404 route_not_found as on every other route (`/v1/plans/`), not an identifier to look up.
 */
export function checkPathParams(route: CompiledRoute, params: Record<string, string>, url: string): void {
  for (const p of route.spec.pathParams ?? []) {
    if ((params[p.name] ?? '') === '') throw new ApiError('route_not_found', `no route matches ${quote(url.split('?')[0])}`);
  }
}

/** 404 vs 405 for a path no route matched under this method. */
export interface PathMatcher {
  /** The methods the path accepts, or undefined when no route has this path. */
  allowed(path: string): string[] | undefined;
  /** The path parameter (market_id, event_id) of the route this path has the shape of, if any. */
  pathParamOf(path: string): string | undefined;
}

export function compilePathMatcher(routes: readonly RouteSpec[]): PathMatcher {
  const entries = routes.map((r) => ({
    re: new RegExp('^' + r.url.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/:[A-Za-z_]+/g, '([^/]+)') + '$'),
    method: r.method,
    pathParam: r.pathParams?.[0]?.name,
  }));
  return {
    allowed(path) {
      let out: string[] | undefined;
      for (const e of entries) if (e.re.test(path) && !(out ??= []).includes(e.method)) out.push(e.method);
      return out;
    },
    pathParamOf(path) {
      for (const e of entries) if (e.pathParam !== undefined && e.re.test(path)) return e.pathParam;
      return undefined;
    },
  };
}
