// The candles' roll-up on a timer (readmodels/price-rollup.ts), where the processors run the
// price-history sink: every PRICE_CANDLE_ROLLUP_MS, one roll-up of the rows inserted since the last.
// Off the sink's insert path: an insert into price_history no longer pays for the candles, a roll-up
// pays for a whole interval's rows at once. A roll-up that fails is logged and done again, whole, at
// the next tick (the mark moves only after its inserts).
import type { History } from '../readmodels/history.ts';
import { rollUpCandles, type RollUp } from '../readmodels/price-rollup.ts';

export interface RunningRollup {
  /** One roll-up now (after the one running, if any); what the timer runs. */
  runOnce(): Promise<RollUp>;
  /** No further roll-up; waits for the one running. */
  stop(): Promise<void>;
}

export function startCandleRollup(history: History, opts: { intervalMs: number; onError?: (err: unknown) => void }): RunningRollup {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<unknown> = Promise.resolve();
  const runOnce = (): Promise<RollUp> => {
    const run = running.then(() => rollUpCandles(history));
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
    },
  };
}
