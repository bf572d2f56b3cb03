-- 004_price_rollup_fence: the fence of the candles' roll-up. One roller at a time per database holds
-- the roll-up's lease (runtime/lease.ts); a roller writes its lease's fence here when it takes the
-- lease, and each of its writes (the candle states, the mark) goes through only while no newer fence
-- is written (readmodels/price-rollup.ts). So a roller that lost its lease while paused (a GC pause,
-- a stopped machine) and goes on where it stopped adds nothing: the roller after it wrote a newer
-- fence before its first roll-up. Fences only grow (the lease floors them at its store's clock in
-- ms), so the newest holder's is the largest; the table keeps one row per name after merges.
CREATE TABLE IF NOT EXISTS price_rollup_fence
(
    name    String,
    fence   UInt64,
    written DateTime64(3, 'UTC') DEFAULT now64(3)
)
ENGINE = ReplacingMergeTree(fence)
ORDER BY name;
