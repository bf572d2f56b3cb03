// In-process key store for the embedded default. In: key hashes and account records; out: the
// same verdicts as the Redis store (store.ts contract). With a `file`, accounts and keys persist
// as JSON under DATA_DIR so the operator command (bin/keys.ts, another process) and the running
// server see the same keys: writers re-read the file before changing it and replace it atomically,
// and the server re-reads it when it changes (a stat at most once per `watchIntervalMs`, default
// 1 s, on the request path), so a revocation made with the command takes effect within a second. Usage counters persist beside it (usage.json,
// written every few seconds and on close). Rate windows are per process, as in any one-process mode.
import { readFileSync, renameSync, writeFileSync, mkdirSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import type { AccountRecord, AuthorizeInput, AuthorizeResult, KeyRecord, KeyStore } from './store.ts';
import { chargeWindow, peekWindow, SlidingLog } from './window.ts';
import { sameHash } from './keys.ts';

interface FileShape {
  accounts: AccountRecord[];
  keys: KeyRecord[];
}

export interface MemoryStoreOptions {
  /** JSON file holding accounts and keys; omit for a purely in-memory store (tests). */
  file?: string;
  /** Poll interval for changes made by another process. */
  watchIntervalMs?: number;
}

export class MemoryKeyStore implements KeyStore {
  readonly kind = 'memory' as const;
  private accounts = new Map<string, AccountRecord>();
  private keys = new Map<string, KeyRecord>();
  private byHash = new Map<string, KeyRecord>();
  private windows = new Map<string, SlidingLog>();
  private usageCounts = new Map<string, number>();
  private flushTimer: NodeJS.Timeout | undefined;
  private readonly file: string | undefined;
  private readonly usageFile: string | undefined;
  private readonly checkMs: number;
  private lastCheck = 0;
  private fileStamp = '';

  constructor(opts: MemoryStoreOptions = {}) {
    this.file = opts.file;
    this.usageFile = opts.file ? opts.file.replace(/\.json$/, '') + '.usage.json' : undefined;
    this.checkMs = opts.watchIntervalMs ?? 1000;
    if (this.file) {
      mkdirSync(dirname(this.file), { recursive: true });
      this.load();
      if (this.usageFile) {
        try {
          const u = JSON.parse(readFileSync(this.usageFile, 'utf8')) as Record<string, number>;
          for (const [k, v] of Object.entries(u)) this.usageCounts.set(k, v);
        } catch {
          /* no usage yet */
        }
      }
    }
  }

  private stamp(): string {
    try {
      const st = statSync(this.file!);
      return `${st.ino}:${st.mtimeMs}:${st.size}`;
    } catch {
      return '';
    }
  }

  /** Picks up changes written by another process (the operator command). */
  private refresh(): void {
    const t = Date.now();
    if (t - this.lastCheck < this.checkMs) return;
    this.lastCheck = t;
    if (this.stamp() !== this.fileStamp) this.load();
  }

  private load(): void {
    if (!this.file) return;
    this.fileStamp = this.stamp();
    let data: FileShape;
    try {
      data = JSON.parse(readFileSync(this.file, 'utf8')) as FileShape;
    } catch {
      return; // no file yet, or caught mid-write by a non-atomic writer: keep what we have
    }
    this.accounts = new Map(data.accounts.map((a) => [a.id, a]));
    this.keys = new Map(data.keys.map((k) => [k.id, k]));
    this.byHash = new Map();
    for (const k of data.keys) if (k.revokedAt === undefined) this.byHash.set(k.hash, k);
  }

  /** Re-read, mutate, write atomically: the other process may have written since we loaded. */
  private mutate<T>(fn: () => T): T {
    if (this.file) this.load();
    const out = fn();
    if (this.file) {
      const tmp = `${this.file}.${process.pid}.tmp`;
      const data: FileShape = { accounts: [...this.accounts.values()], keys: [...this.keys.values()] };
      writeFileSync(tmp, JSON.stringify(data, null, 2), { mode: 0o600 });
      renameSync(tmp, this.file);
      this.fileStamp = this.stamp();
    }
    return out;
  }

  private scheduleUsageFlush(): void {
    if (!this.usageFile || this.flushTimer) return;
    this.flushTimer = setTimeout(() => {
      this.flushTimer = undefined;
      this.flushUsage();
    }, 5000);
    this.flushTimer.unref();
  }

  private flushUsage(): void {
    if (!this.usageFile) return;
    const tmp = `${this.usageFile}.${process.pid}.tmp`;
    writeFileSync(tmp, JSON.stringify(Object.fromEntries(this.usageCounts)));
    renameSync(tmp, this.usageFile);
  }

  async authorize(input: AuthorizeInput): Promise<AuthorizeResult> {
    if (this.file) this.refresh();
    const rec = this.byHash.get(input.hash);
    // The map finds the record by digest; the digest itself is then compared in constant time.
    if (rec === undefined || rec.revokedAt !== undefined || !sameHash(rec.hash, input.hash)) return { kind: 'invalid' };
    const acct = this.accounts.get(rec.accountId);
    if (acct === undefined) return { kind: 'invalid' };
    const limits = acct.limits;
    const key = { keyId: rec.id, accountId: rec.accountId, servedPlan: limits.servedPlan };
    const now = input.now ?? Date.now();
    let log = this.windows.get(rec.id);
    if (input.permission !== undefined && !rec.permissions.includes(input.permission)) {
      // Charged nothing; the 403 still reports the window (an authenticated response).
      const p = peekWindow(log, now);
      return { kind: 'forbidden', key, window: { limit: limits.rateLimitPerMin, remaining: Math.max(0, limits.rateLimitPerMin - p.count), resetAt: p.resetAt } };
    }
    if (log === undefined) this.windows.set(rec.id, (log = new SlidingLog()));
    const v = chargeWindow(log, now, limits.rateLimitPerMin);
    const window = { limit: limits.rateLimitPerMin, remaining: Math.max(0, limits.rateLimitPerMin - v.count), resetAt: v.resetAt };
    if (!v.admitted) return { kind: 'rate_limited', key, window, now };
    const uk = `${rec.accountId}:${input.period}`;
    const used = this.usageCounts.get(uk) ?? 0;
    if (limits.hardCap && used >= limits.includedPerMonth) {
      return { kind: 'payment_required', key, window, action: limits.action, plan: acct.plan, included: limits.includedPerMonth, used };
    }
    this.usageCounts.set(uk, used + 1);
    this.scheduleUsageFlush();
    return { kind: 'ok', key, window };
  }

  async getAccount(id: string) {
    if (this.file) this.refresh();
    return this.accounts.get(id);
  }
  async putAccount(account: AccountRecord) {
    this.mutate(() => this.accounts.set(account.id, account));
  }
  async listAccounts() {
    if (this.file) this.refresh();
    return [...this.accounts.values()];
  }
  async insertKey(key: KeyRecord, maxKeys: number) {
    return this.mutate(() => {
      let active = 0;
      for (const k of this.keys.values()) if (k.accountId === key.accountId && k.revokedAt === undefined) active++;
      if (active >= maxKeys) return false;
      this.keys.set(key.id, key);
      this.byHash.set(key.hash, key);
      return true;
    });
  }
  async getKey(id: string) {
    if (this.file) this.refresh();
    return this.keys.get(id);
  }
  async listKeys(accountId?: string) {
    if (this.file) this.refresh();
    return [...this.keys.values()].filter((k) => accountId === undefined || k.accountId === accountId);
  }
  async revokeKey(id: string, now: number) {
    return this.mutate(() => {
      const k = this.keys.get(id);
      if (!k || k.revokedAt !== undefined) return false;
      const next = { ...k, revokedAt: now };
      this.keys.set(id, next);
      this.byHash.delete(k.hash);
      return true;
    });
  }
  async rerollKey(id: string, hash: string, prefix: string, now: number) {
    return this.mutate(() => {
      const k = this.keys.get(id);
      if (!k || k.revokedAt !== undefined) return false;
      const next = { ...k, hash, prefix, rerolledAt: now };
      this.keys.set(id, next);
      this.byHash.delete(k.hash);
      this.byHash.set(hash, next);
      return true;
    });
  }
  async usage(accountId: string, period: string) {
    return this.usageCounts.get(`${accountId}:${period}`) ?? 0;
  }

  /** Open push streams per account: connection -> when its slot expires. One process: memory only. */
  private readonly streamSlots = new Map<string, Map<string, number>>();

  async acquireStreamSlot(accountId: string, conn: string, limit: number, now: number, expiresAt: number) {
    const slots = this.streamSlots.get(accountId) ?? new Map<string, number>();
    for (const [c, until] of slots) if (until <= now) slots.delete(c);
    if (slots.size >= limit && !slots.has(conn)) return false;
    slots.set(conn, expiresAt);
    this.streamSlots.set(accountId, slots);
    return true;
  }

  async renewStreamSlot(accountId: string, conn: string, now: number, expiresAt: number) {
    const slots = this.streamSlots.get(accountId);
    const until = slots?.get(conn);
    if (until === undefined || until <= now) return false;
    slots!.set(conn, expiresAt);
    return true;
  }

  async releaseStreamSlot(accountId: string, conn: string) {
    const slots = this.streamSlots.get(accountId);
    slots?.delete(conn);
    if (slots && slots.size === 0) this.streamSlots.delete(accountId);
  }
  async close() {
    if (this.flushTimer) {
      clearTimeout(this.flushTimer);
      this.flushTimer = undefined;
    }
    if (this.usageCounts.size > 0) this.flushUsage();
  }
}
