// The key store seam: one interface, two implementations (memory-store.ts for the embedded
// default, redis-store.ts for the stack), one contract suite (store.contract.ts) run against both.
// In: key hashes (never key values), account records, the request clock. Out: the authorization
// verdict of one request (key, permission, rolling-window rate limit, monthly allowance) decided
// atomically in ONE call, so the hot path costs one Redis round trip in the stack.
import type { Permission } from '../routes/table.ts';
import type { CustomLimits, PaymentState, PlanKey, ServedLimits } from './plans.ts';

export interface KeyRecord {
  id: string;
  accountId: string;
  /** HMAC-SHA256(pepper, key) in hex; the key itself is never stored. */
  hash: string;
  /** First characters of the key, for people to recognise it in listings. */
  prefix: string;
  permissions: Permission[];
  name: string;
  createdAt: number;
  revokedAt?: number;
  rerolledAt?: number;
}

export interface AccountRecord {
  id: string;
  plan: PlanKey;
  paymentState: PaymentState;
  custom: CustomLimits;
  /** Derived from plan, payment state and custom terms (plans.ts servedLimits). */
  limits: ServedLimits;
  createdAt: number;
}

/** Rolling-window state reported on every charged request. */
export interface WindowState {
  limit: number;
  /** Advisory (spec): requests left in the current rolling window. */
  remaining: number;
  /** Epoch ms by which the oldest counted request ages out: an upper bound on a 429's length. */
  resetAt: number;
}

export interface AuthKey {
  keyId: string;
  accountId: string;
  servedPlan: PlanKey;
}

export type AuthorizeResult =
  | { kind: 'invalid' }
  /** `window` as it stands, uncharged (the 403 is an authenticated response and reports it). */
  | { kind: 'forbidden'; key: AuthKey; window: WindowState }
  | { kind: 'rate_limited'; key: AuthKey; window: WindowState; now: number }
  | {
      kind: 'payment_required';
      key: AuthKey;
      window: WindowState;
      action: 'upgrade_plan' | 'resolve_payment';
      plan: PlanKey;
      included: number;
      used: number;
    }
  | { kind: 'ok'; key: AuthKey; window: WindowState };

export interface AuthorizeInput {
  hash: string;
  /** undefined: the route needs no particular permission. */
  permission: Permission | undefined;
  /** Request time (epoch ms); undefined lets the store use its own clock (Redis TIME). */
  now: number | undefined;
  /** `YYYY-MM` of the request (plans.ts billingPeriod). */
  period: string;
}

export interface KeyStore {
  readonly kind: 'memory' | 'redis';
  /**
   * Verify the key, check the permission, charge the rolling window (spec: "Rate limit") and the
   * monthly allowance, atomically. Forbidden and invalid requests charge nothing; a request past
   * the window charges nothing; a 402 is charged to the window but not to the allowance.
   * Rejects (throws) when the store cannot be reached (the API answers 502 upstream_unavailable, at
   * once when a connection it had is down).
   */
  authorize(input: AuthorizeInput): Promise<AuthorizeResult>;

  getAccount(id: string): Promise<AccountRecord | undefined>;
  putAccount(account: AccountRecord): Promise<void>;
  listAccounts(): Promise<AccountRecord[]>;
  /** Inserts unless the account already has `maxKeys` active keys; false then. */
  insertKey(key: KeyRecord, maxKeys: number): Promise<boolean>;
  getKey(id: string): Promise<KeyRecord | undefined>;
  listKeys(accountId?: string): Promise<KeyRecord[]>;
  /** Marks the key revoked; the next request with it is 401. False if unknown or already revoked. */
  revokeKey(id: string, now: number): Promise<boolean>;
  /** Replaces the key's hash (the old value stops working at once). False if unknown or revoked. */
  rerollKey(id: string, hash: string, prefix: string, now: number): Promise<boolean>;
  /** Requests counted toward the account's allowance in a period (`YYYY-MM`). */
  usage(accountId: string, period: string): Promise<number>;
  /**
   * The account's open push streams, counted across every API process sharing the store: takes a
   * slot for `conn` unless `limit` unexpired slots are held (false then). A slot lasts until
   * `expiresAt`: its process renews it while the stream is open and releases it at close, so a
   * process that dies without releasing frees its slots when they expire.
   */
  acquireStreamSlot(accountId: string, conn: string, limit: number, now: number, expiresAt: number): Promise<boolean>;
  /** Extends an open stream's slot (false if it expired by `now`, or is gone). */
  renewStreamSlot(accountId: string, conn: string, now: number, expiresAt: number): Promise<boolean>;
  releaseStreamSlot(accountId: string, conn: string): Promise<void>;
  close(): Promise<void>;
}
