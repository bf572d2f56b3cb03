// API keys: generation, hashing, the Authorization header, and the key lifecycle the operator
// command drives (create, list, revoke, reroll; account plan and payment state).
// In: key values (only at creation and in request headers), a pepper. Out: hashes and records for
// the KeyStore. A key value is returned once, at creation or reroll, and never stored or logged.
import { createHmac, createSecretKey, hash, randomBytes, timingSafeEqual, type KeyObject } from 'node:crypto';
import { ulid } from 'ulid';
import { PERMISSIONS, type Permission } from '../routes/table.ts';
import { isPaymentState, isPlanKey, servedLimits, type CustomLimits, type PaymentState, type PlanKey } from './plans.ts';
import type { AccountRecord, KeyRecord, KeyStore } from './store.ts';

/** "API key length: at most 256 characters." */
export const MAX_KEY_LENGTH = 256;
const KEY_PREFIX = 'pmk_';

/** A new key: `pmk_` + 32 random bytes in base64url (256 bits; hashing needs no slow KDF). */
export function generateKey(): string {
  return KEY_PREFIX + randomBytes(32).toString('base64url');
}

/** The pepper last hashed with, as a secret KeyObject: made once, not from the pepper's text on every request. */
let pepperKey: { pepper: string; key: KeyObject } | undefined;

/**
 * Stored form of a key: HMAC-SHA256 keyed with the server-side pepper (its UTF-8 bytes), hex. The
 * pepper's KeyObject is kept (it is the server's own secret, held in its configuration anyway);
 * nothing of the key hashed is.
 */
export function hashKey(pepper: string, key: string): string {
  if (pepperKey?.pepper !== pepper) pepperKey = { pepper, key: createSecretKey(Buffer.from(pepper, 'utf8')) };
  return createHmac('sha256', pepperKey.key).update(key).digest('hex');
}

/**
 * A key's probe: SHA-256 over the pepper and the key, in one one-shot call. It finds the key's
 * stored form in StoredForms without the HMAC (in the server a `createHmac` is an object over a
 * native handle the collector finalizes, about 4 µs a request: bench/routes.md). Like the stored
 * form it depends on the pepper, so it tells nothing about a key to whoever holds no pepper.
 */
export function keyProbe(pepper: string, key: string): string {
  return hash('sha256', `${pepper}\n${key}`, 'base64');
}

/**
 * The stored forms (hashKey) of the keys a key store last accepted, by their probe (keyProbe). A
 * memo of a pure function of (pepper, key), not of any verdict: the store still looks the stored
 * form up, compares it in constant time, and decides revocation, permission, rate limit and
 * allowance on every request, so nothing here needs invalidating when a key changes. Only keys a
 * store accepted are remembered (an unknown key adds nothing), a key the store refuses as invalid
 * is forgotten, and at `max` entries the memo starts over; it holds digests only, never a key.
 */
export class StoredForms {
  private readonly byProbe = new Map<string, string>();
  constructor(private readonly max = 4096) {}

  get(probe: string): string | undefined {
    return this.byProbe.get(probe);
  }

  remember(probe: string, stored: string): void {
    if (this.byProbe.size >= this.max) this.byProbe.clear();
    this.byProbe.set(probe, stored);
  }

  forget(probe: string): void {
    this.byProbe.delete(probe);
  }

  get size(): number {
    return this.byProbe.size;
  }
}

/** Constant-time equality of two hex digests (the store looked the record up by hash). */
export function sameHash(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  return timingSafeEqual(Buffer.from(a, 'hex'), Buffer.from(b, 'hex'));
}

export const keyDisplayPrefix = (key: string): string => key.slice(0, KEY_PREFIX.length + 6);

export type BearerResult = { kind: 'key'; key: string } | { kind: 'missing'; message: string } | { kind: 'invalid'; message: string };

const CREDENTIAL_HEADERS = ['x-api-key', 'api-key', 'x-api-token', 'apikey'];

/**
 * Read `Authorization: Bearer <key>` (spec: "Authentication"). A missing header is
 * missing_api_key, and the message says what was sent instead, if anything; a key over 256
 * characters is invalid_api_key without a lookup. The key value is never quoted in a message.
 */
export function readBearer(headers: Record<string, string | string[] | undefined>, queryCredential: string | undefined): BearerResult {
  const h = headers.authorization;
  if (typeof h === 'string' && h.length > 0) {
    const sp = h.indexOf(' ');
    const scheme = sp === -1 ? h : h.slice(0, sp);
    if (scheme.toLowerCase() !== 'bearer') {
      const what = sp === -1 ? 'an Authorization header without a scheme' : `an Authorization header with the ${quoteScheme(scheme)} scheme`;
      return { kind: 'missing', message: `missing API key: the request sent ${what}; send Authorization: Bearer <API_KEY>` };
    }
    // `Bearer` alone (Node trims the header's trailing spaces, so `Bearer ` arrives so too) sent no key.
    const key = sp === -1 ? '' : h.slice(sp + 1).trim();
    if (key.length === 0) return { kind: 'missing', message: 'missing API key: the Authorization header has the Bearer scheme but no key; send Authorization: Bearer <API_KEY>' };
    if (key.length > MAX_KEY_LENGTH) return { kind: 'invalid', message: `invalid API key: keys are at most ${MAX_KEY_LENGTH} characters; the one sent has ${key.length}` };
    return { kind: 'key', key };
  }
  if (queryCredential !== undefined) {
    return {
      kind: 'missing',
      message: `missing API key: a key was sent in the query string (${JSON.stringify(queryCredential)}); keys are accepted only in the header Authorization: Bearer <API_KEY>`,
    };
  }
  for (const name of CREDENTIAL_HEADERS) {
    if (headers[name] !== undefined) {
      return { kind: 'missing', message: `missing API key: a key was sent in the ${name} header; send it as Authorization: Bearer <API_KEY>` };
    }
  }
  return { kind: 'missing', message: 'missing API key: send Authorization: Bearer <API_KEY>' };
}

const quoteScheme = (s: string): string => JSON.stringify(s.length > 20 ? s.slice(0, 20) + '…' : s);

export class KeyAdminError extends Error {}

/**
 * The least value of each custom term. A rate limit of 0 would refuse every request with no instant
 * at which a retry could succeed (its 429 had no Retry-After to give); an allowance or a key cap of
 * 0 is a real (if odd) term.
 */
const CUSTOM_MINIMUM: ReadonlyArray<[keyof CustomLimits, number]> = [
  ['rate_limit_per_min', 1],
  ['included_requests_per_month', 0],
  ['max_keys', 0],
];

export interface CreateKeyInput {
  accountId: string;
  /** Creates the account on this plan when it does not exist yet (default free). */
  plan?: PlanKey;
  permissions?: Permission[];
  name?: string;
}

/** The operator's key lifecycle over a KeyStore (bin/keys.ts, tests, the demo key). */
export class KeyAdmin {
  constructor(
    private readonly store: KeyStore,
    private readonly pepper: string,
    private readonly clock: () => number = Date.now,
  ) {}

  async ensureAccount(id: string, plan: PlanKey = 'free'): Promise<AccountRecord> {
    const existing = await this.store.getAccount(id);
    if (existing) return existing;
    const acct: AccountRecord = { id, plan, paymentState: 'active', custom: {}, limits: servedLimits(plan, 'active'), createdAt: this.clock() };
    await this.store.putAccount(acct);
    return acct;
  }

  async updateAccount(id: string, change: { plan?: string; paymentState?: string; custom?: CustomLimits }): Promise<AccountRecord> {
    const acct = await this.store.getAccount(id);
    if (!acct) throw new KeyAdminError(`unknown account ${JSON.stringify(id)}`);
    if (change.plan !== undefined && !isPlanKey(change.plan)) throw new KeyAdminError(`unknown plan ${JSON.stringify(change.plan)}`);
    if (change.paymentState !== undefined && !isPaymentState(change.paymentState)) {
      throw new KeyAdminError(`unknown payment state ${JSON.stringify(change.paymentState)} (active, past_due, unpaid, paused, incomplete)`);
    }
    for (const [term, min] of CUSTOM_MINIMUM) {
      const v = change.custom?.[term];
      if (v !== undefined && !(Number.isSafeInteger(v) && v >= min)) throw new KeyAdminError(`${term} must be an integer of at least ${min}; got ${JSON.stringify(v)}`);
    }
    const plan = (change.plan as PlanKey | undefined) ?? acct.plan;
    const paymentState = (change.paymentState as PaymentState | undefined) ?? acct.paymentState;
    const custom = { ...acct.custom, ...change.custom };
    const next: AccountRecord = { ...acct, plan, paymentState, custom, limits: servedLimits(plan, paymentState, custom) };
    await this.store.putAccount(next);
    return next;
  }

  /** Returns the key value: the only time it is ever available. */
  async create(input: CreateKeyInput): Promise<{ key: string; record: KeyRecord }> {
    const permissions = input.permissions ?? [...PERMISSIONS];
    for (const p of permissions) if (!PERMISSIONS.includes(p)) throw new KeyAdminError(`unknown permission ${JSON.stringify(p)}`);
    let acct = await this.store.getAccount(input.accountId);
    if (!acct) acct = await this.ensureAccount(input.accountId, input.plan ?? 'free');
    else if (input.plan !== undefined && input.plan !== acct.plan) {
      throw new KeyAdminError(`account ${JSON.stringify(acct.id)} is on plan ${acct.plan}; change it with the account command first`);
    }
    const key = generateKey();
    const record: KeyRecord = {
      id: `key_${ulid()}`,
      accountId: acct.id,
      hash: hashKey(this.pepper, key),
      prefix: keyDisplayPrefix(key),
      permissions: [...new Set(permissions)],
      name: input.name ?? '',
      createdAt: this.clock(),
    };
    // "The number of keys per account is capped by the plan's max_keys."
    if (!(await this.store.insertKey(record, acct.limits.maxKeys))) {
      throw new KeyAdminError(`account ${JSON.stringify(acct.id)} already has the ${acct.limits.maxKeys} active keys its ${acct.plan} plan allows (max_keys); revoke one first`);
    }
    return { key, record };
  }

  async revoke(keyId: string): Promise<void> {
    if (!(await this.store.revokeKey(keyId, this.clock()))) throw new KeyAdminError(`no active key ${JSON.stringify(keyId)}`);
  }

  /** New value for the same key id, permissions and account; the old value stops working at once. */
  async reroll(keyId: string): Promise<string> {
    const key = generateKey();
    if (!(await this.store.rerollKey(keyId, hashKey(this.pepper, key), keyDisplayPrefix(key), this.clock()))) {
      throw new KeyAdminError(`no active key ${JSON.stringify(keyId)}`);
    }
    return key;
  }

  list(accountId?: string): Promise<KeyRecord[]> {
    return this.store.listKeys(accountId);
  }
}
