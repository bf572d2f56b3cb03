-- 005_price_latest_rollup: price_latest leaves the insert path too. Its materialized view made a part
-- of its own with every insert into price_history, ~6 ms of chdb's CPU an insert whatever its size
-- (bench/history.md, 2026-11-27); now the candles' roll-up (readmodels/price-rollup.ts) writes the
-- rows it rolls up, one part a roll-up, and the merges keep each outcome's newest. The rows not
-- rolled up yet are read from price_history beside it by whoever needs the newest quote (the sink's
-- change detection, runtime/sinks.ts readStoredQuotes; the route's market lookup reads price_history),
-- so no answer depends on when the last roll-up ran. price_latest keeps what the view wrote: every row inserted
-- before this migration is in it, and the rows after it are the roll-up's (rewriting one is harmless:
-- ReplacingMergeTree(observed_at) keeps the newest).

DROP VIEW IF EXISTS price_latest_mv;
