// The candles' roll-up on a timer (readmodels/price-rollup.ts), where the processors run the
// price-history sink: every PRICE_CANDLE_ROLLUP_MS, one roll-up of the rows inserted since the last.
// Off the sink's insert path: an insert into price_history no longer pays for the candles, a roll-up
// pays for a whole interval's rows at once. A roll-up that fails is logged and done again, whole, at
// the next tick (the mark moves only after its inserts).
//
// One roller per history database, whatever the number of processors processes: a roll-up adds
// states, so two at once would count the same changes twice. Every process's timer asks the roll-up's
// lease (lease.ts) at each tick; the one that holds it rolls up, renews it while it holds it, and
// frees it when it stops; the others wait for it to expire or be freed. The lease is as wide as the
// database (bin/run.ts): on a ClickHouse server shared by the stack's processors, in Redis
// (REDIS_URL); on chdb in-process, the process being the only one with its chdb database (each
// processors process on chdb is its own roller, of its own database, Redis or not). A roller that took the lease writes its fence first (claimRollup),
// so one that lost it while paused writes nothing after (readmodels/price-rollup.ts, FENCED).
import type { History } from '../readmodels/history.ts';
import { claimRollup, rollUpCandles, rollupLeaseName, rollupSettleMs, RollupFenced, type RollUp } from '../readmodels/price-rollup.ts';
import type { Lease, LeaseGrant } from './lease.ts';

export interface RunningRollup {
  /**
   * One roll-up now (after the one running, if any); what the timer runs. null: this process does
   * not roll up now (another holds the lease, or this one took it and waits for a former holder's
   * statements to end, rollupSettleMs).
   */
  runOnce(): Promise<RollUp | null>;
  /** No further roll-up; waits for the one running, then frees the lease. */
  stop(): Promise<void>;
}

export interface RollupOptions {
  intervalMs: number;
  lease: Lease;
  /**
   * How long the lease lasts unless renewed (default: three intervals, at least 30 s). A holder renews
   * it at every tick and every third of it during a long roll-up; a holder that stops renewing (a
   * crash, a pause) leaves the roll-up to another process after this long.
   */
  leaseTtlMs?: number;
  onError?: (err: unknown) => void;
}

export function startCandleRollup(history: History, opts: RollupOptions): RunningRollup {
  const name = rollupLeaseName(history);
  const ttl = opts.leaseTtlMs ?? Math.max(30_000, 3 * opts.intervalMs);
  // Renewal asks the store before the lease runs out; this process counts it lost a little earlier
  // than the store does (its clock started before the store's), and stops writing then.
  const margin = Math.min(1_000, ttl / 10);
  let grant: LeaseGrant | undefined;
  let heldUntil = 0;
  let readyAt = 0;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let renewer: NodeJS.Timeout | undefined;
  let running: Promise<unknown> = Promise.resolve();

  const held = (): boolean => grant !== undefined && Date.now() < heldUntil;
  const lose = () => {
    grant = undefined;
    heldUntil = 0;
    if (renewer) clearInterval(renewer);
    renewer = undefined;
  };
  const renew = async (): Promise<boolean> => {
    const g = grant;
    if (!g) return false;
    const asked = Date.now();
    const ok = await opts.lease.renew(g, ttl).catch(() => false);
    if (grant !== g) return false;
    if (ok) heldUntil = asked + ttl - margin;
    else lose();
    return ok;
  };
  const take = async (): Promise<boolean> => {
    const asked = Date.now();
    const g = await opts.lease.acquire(name, ttl);
    if (!g) return false;
    grant = g;
    heldUntil = asked + ttl - margin;
    // While a roll-up runs longer than the lease (the first one after a replay covers the retention).
    renewer = setInterval(() => void renew(), Math.max(1, Math.floor(ttl / 3)));
    renewer.unref();
    // No roll-up under a fence not written: it would not keep a former holder out. Given back, and
    // asked again at the next tick.
    try {
      await claimRollup(history, g.fence);
    } catch (err) {
      lose();
      await opts.lease.release(g).catch(() => false);
      throw err;
    }
    readyAt = Date.now() + rollupSettleMs(history);
    return true;
  };

  const once = async (): Promise<RollUp | null> => {
    if (!held() && grant) lose();
    if (!grant) {
      if (!(await take())) return null;
    } else if (!(await renew())) return null;
    if (Date.now() < readyAt) return null;
    const g = grant!;
    try {
      return await rollUpCandles(history, { fence: g.fence, held: () => grant === g && held() });
    } catch (err) {
      if (err instanceof RollupFenced && grant === g) lose();
      throw err;
    }
  };
  const runOnce = (): Promise<RollUp | null> => {
    const run = running.then(once);
    running = run.catch(() => {});
    return run;
  };
  const tick = () => {
    timer = undefined;
    void runOnce()
      .catch((err: unknown) => opts.onError?.(err))
      .finally(() => {
        if (!stopped) timer = setTimeout(tick, opts.intervalMs);
      });
  };
  timer = setTimeout(tick, opts.intervalMs);
  return {
    runOnce,
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await running;
      const g = grant;
      lose();
      if (g) await opts.lease.release(g).catch(() => false);
    },
  };
}
