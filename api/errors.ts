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

export class ApiError extends Error {
  readonly code: ErrorCode;
  readonly statusCode: number;
  readonly canRetry: boolean;
  readonly options: ApiErrorOptions;
  constructor(code: ErrorCode, message: string, options: ApiErrorOptions = {}) {
    super(message);
    this.name = 'ApiError';
    this.code = code;
    this.statusCode = ERROR_CATALOG[code].status;
    this.canRetry = ERROR_CATALOG[code].canRetry;
    this.options = options;
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

/** Quote a value in a message the same way everywhere. */
export const quote = (v: unknown): string => JSON.stringify(typeof v === 'string' ? v : String(v));
