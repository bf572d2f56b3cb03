// The key check of every keyed route (spec: "Authentication", "Limits"). In: the request's
// Authorization header, the route's permission, the key store. Out: the KeyInfo the handler sees,
// or the ApiError to answer (401 missing/invalid, 403, 429 with Retry-After, 402 with its fields,
// 502 when the store cannot be reached); X-RateLimit-* set on every charged response.
// One KeyStore.authorize call per request: one Lua round trip in the stack, no verdict cached, so a
// revocation applies to the very next request. What is remembered is the key's stored form only
// (StoredForms, api/auth/keys.ts: found by a one-shot SHA-256 instead of the HMAC).
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ApiError, quote } from '../../errors.ts';
import { StoredForms, hashKey, keyProbe, readBearer } from '../../auth/keys.ts';
import { billingPeriod, type PlanKey } from '../../auth/plans.ts';
import type { AuthDeps } from '../../auth/index.ts';
import type { AuthorizeResult, WindowState } from '../../auth/store.ts';
import type { RouteSpec } from '../../routes/table.ts';
import type { KeyInfo } from '../../types.ts';

/** Shared by every app of the process: a probe and its stored form depend on the pepper and the key alone. */
const FORMS = new StoredForms();

const NEXT_TIER: Record<PlanKey, PlanKey> = { free: 'starter', starter: 'pro', pro: 'business', business: 'enterprise', enterprise: 'enterprise' };

export async function authorizeRequest(req: FastifyRequest, reply: FastifyReply, spec: RouteSpec, auth: AuthDeps | undefined, now: number): Promise<KeyInfo | ApiError> {
  const b = readBearer(req.headers, undefined);
  if (b.kind !== 'key') return new ApiError(b.kind === 'missing' ? 'missing_api_key' : 'invalid_api_key', b.message);
  if (!auth) return new ApiError('upstream_unavailable', 'API keys cannot be verified: no key store is configured');
  const probe = keyProbe(auth.pepper, b.key);
  const known = FORMS.get(probe);
  const stored = known ?? hashKey(auth.pepper, b.key);
  let v: AuthorizeResult;
  try {
    v = await auth.store.authorize({ hash: stored, permission: spec.permission, now: auth.useAppClock ? now : undefined, period: billingPeriod(now) });
  } catch (err) {
    // Spec ("Authentication"): "Failure to verify keys upstream: 502 upstream_unavailable".
    req.log.error({ err: (err as Error).message }, 'key store unreachable');
    return new ApiError('upstream_unavailable', 'API keys cannot be verified right now: the key store is unreachable; retry with backoff');
  }
  if (v.kind === 'invalid') {
    if (known !== undefined) FORMS.forget(probe);
    return verdictError(v, spec.permission, spec.url);
  }
  if (known === undefined) FORMS.remember(probe, stored);
  // Every authenticated answer reports the window (spec "Limits"); a 403 charged nothing to it.
  rateHeaders(reply, v.window);
  if (v.kind === 'ok') return { keyId: v.key.keyId, accountId: v.key.accountId, plan: v.key.servedPlan };
  return verdictError(v, spec.permission, spec.url);
}

function rateHeaders(reply: FastifyReply, w: WindowState): void {
  reply.header('x-ratelimit-limit', w.limit);
  reply.header('x-ratelimit-remaining', w.remaining);
  reply.header('x-ratelimit-reset', Math.ceil(w.resetAt / 1000));
}

/** A refused verdict as the spec's error. */
function verdictError(v: Exclude<AuthorizeResult, { kind: 'ok' }>, permission: string | undefined, url: string): ApiError {
  switch (v.kind) {
    case 'invalid':
      return new ApiError('invalid_api_key', 'invalid API key: the key sent is unknown or has been revoked');
    case 'forbidden':
      return new ApiError('forbidden', `this key lacks the permission ${quote(permission)} that ${url} needs`);
    case 'rate_limited': {
      // "API-key 429 responses add Retry-After (whole seconds)": until the oldest request ages out.
      const retry = Math.max(1, Math.ceil((v.window.resetAt - v.now) / 1000));
      return new ApiError('rate_limited', `rate limit of ${v.window.limit} requests per rolling 60 seconds exceeded; retry after ${retry} s`, {
        headers: { 'retry-after': String(retry) },
      });
    }
    case 'payment_required': {
      const resolve = v.action === 'resolve_payment';
      const message = resolve
        ? `the ${v.plan} subscription is in payment recovery and is served as Free; the Free allowance of ${v.included} requests this month is used up (${v.used} requests); resolve the payment to restore ${v.plan}`
        : `the Free plan's allowance of ${v.included} requests this month is used up (${v.used} requests); upgrade to a paid plan`;
      return new ApiError('payment_required', message, {
        extra: {
          action: v.action,
          required_tier: resolve ? v.plan : NEXT_TIER[v.key.servedPlan],
          current_tier: v.key.servedPlan,
          included_requests_per_month: v.included,
          current_period_requests: v.used,
        },
      });
    }
  }
}

