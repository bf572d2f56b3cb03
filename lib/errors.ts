// The one error catalog of the API (spec: "Errors"). Every error body on every route is rendered
// from an ApiError by renderError; nothing else writes an error body. Codes are never renamed or
// reused; `canRetry` follows the spec's retry guidance.

export const ERROR_CATALOG = {
  unknown_parameter: { status: 400, canRetry: false },
  invalid_parameter: { status: 400, canRetry: false },
  missing_parameter: { status: 400, canRetry: false },
  invalid_cursor: { status: 400, canRetry: false },
  invalid_identifier: { status: 400, canRetry: false },
  upstream_rejected: { status: 400, canRetry: false },
  missing_api_key: { status: 401, canRetry: false },
  invalid_api_key: { status: 401, canRetry: false },
  payment_required: { status: 402, canRetry: false },
  forbidden: { status: 403, canRetry: false },
  route_not_found: { status: 404, canRetry: false },
  market_not_found: { status: 404, canRetry: false },
  event_not_found: { status: 404, canRetry: false },
  profile_not_found: { status: 404, canRetry: false },
  method_not_allowed: { status: 405, canRetry: false },
  ambiguous_identifier: { status: 409, canRetry: false },
  rate_limited: { status: 429, canRetry: true },
  usage_limit_exceeded: { status: 429, canRetry: true },
  upstream_rate_limited: { status: 429, canRetry: true },
  upstream_unavailable: { status: 502, canRetry: true },
  service_unavailable: { status: 503, canRetry: true },
} as const satisfies Record<string, { status: number; canRetry: boolean }>;

export type ErrorCode = keyof typeof ERROR_CATALOG;

export interface ErrorItem {
  param: string;
  value: unknown;
  message: string;
}

export interface ErrorBody {
  code: ErrorCode;
  message: string;
  status_code: number;
  param?: string;
  errors?: ErrorItem[];
  candidates?: string[];
  action?: 'upgrade_plan' | 'resolve_payment';
  required_tier?: string;
  current_tier?: string;
  included_requests_per_month?: number;
  current_period_requests?: number;
}

export interface ApiErrorOptions {
  param?: string;
  errors?: ErrorItem[];
  candidates?: string[];
  /** Extra body fields (the 402 fields). */
  extra?: Partial<Pick<ErrorBody, 'action' | 'required_tier' | 'current_tier' | 'included_requests_per_month' | 'current_period_requests'>>;
  /** Response headers that belong to this error (Allow, Retry-After). */
  headers?: Record<string, string>;
}

// Size caps of an error body. Router-level errors answer before the key is read, so no rate limit
// applies to them: an uncapped errors[] let a 14 KB query of 7,000 empty pairs draw a 1.4 MB body.
// With these caps a body stays under about 16 KB whatever the request held.
/** At most this many entries in errors[]; the body message says how many more there were. */
export const MAX_ERROR_ITEMS = 20;
/** A quoted value longer than this is cut, and the quote says how long it was. */
export const MAX_QUOTED_CHARS = 200;
/** A message (of the body or of an errors[] entry) longer than this is cut. */
export const MAX_MESSAGE_CHARS = 600;
/** A repeated parameter's values listed in errors[].value: at most this many. */
const MAX_VALUE_ITEMS = 10;

const clipText = (s: string, max: number): string => (s.length <= max ? s : `${s.slice(0, max)}… (cut at ${max} of ${s.length} characters)`);

function clipValue(v: unknown): unknown {
  if (typeof v === 'string') return clipText(v, MAX_QUOTED_CHARS);
  if (Array.isArray(v)) return v.slice(0, MAX_VALUE_ITEMS).map(clipValue);
  return v;
}

export class ApiError extends Error {
  readonly code: ErrorCode;
  readonly statusCode: number;
  readonly canRetry: boolean;
  readonly options: ApiErrorOptions;
  constructor(code: ErrorCode, message: string, options: ApiErrorOptions = {}) {
    let text = clipText(message, MAX_MESSAGE_CHARS);
    let opts = options;
    const items = options.errors;
    if (items !== undefined) {
      if (items.length > MAX_ERROR_ITEMS) text += ` (and ${items.length - MAX_ERROR_ITEMS} more problems; errors[] lists the first ${MAX_ERROR_ITEMS})`;
      const kept = items.length > MAX_ERROR_ITEMS ? items.slice(0, MAX_ERROR_ITEMS) : items;
      opts = { ...options, errors: kept.map((i) => ({ param: clipText(i.param, MAX_QUOTED_CHARS), value: clipValue(i.value), message: clipText(i.message, MAX_MESSAGE_CHARS) })) };
    }
    if (opts.param !== undefined && opts.param.length > MAX_QUOTED_CHARS) opts = { ...opts, param: clipText(opts.param, MAX_QUOTED_CHARS) };
    super(text);
    this.name = 'ApiError';
    this.code = code;
    this.statusCode = ERROR_CATALOG[code].status;
    this.canRetry = ERROR_CATALOG[code].canRetry;
    this.options = opts;
  }
}

export const isApiError = (e: unknown): e is ApiError => e instanceof ApiError;

/** Several problems in one 400: the body's message describes the first (spec: `errors[]`). */
export function apiErrorFromItems(code: ErrorCode, items: ErrorItem[]): ApiError {
  if (items.length === 0) throw new Error('apiErrorFromItems needs at least one item');
  const first = items[0];
  return new ApiError(code, first.message, {
    param: first.param,
    errors: items.length > 1 ? items : undefined,
  });
}

export function renderError(e: ApiError): ErrorBody {
  const body: ErrorBody = { code: e.code, message: e.message, status_code: e.statusCode };
  if (e.options.param !== undefined) body.param = e.options.param;
  if (e.options.errors !== undefined) body.errors = e.options.errors;
  if (e.options.candidates !== undefined) body.candidates = e.options.candidates;
  if (e.options.extra) Object.assign(body, e.options.extra);
  return body;
}

/** Quote a value in a message the same way everywhere; a long value is cut (MAX_QUOTED_CHARS). */
export const quote = (v: unknown): string => {
  const s = typeof v === 'string' ? v : String(v);
  return s.length <= MAX_QUOTED_CHARS ? JSON.stringify(s) : `${JSON.stringify(s.slice(0, MAX_QUOTED_CHARS))}… (${s.length} characters)`;
};
