-- 003_price_candle_rollup: the candles leave the insert path. The three materialized views of 002
-- cost chdb a part and ~13 ms of fixed CPU per insert each, and the sink inserts a few hundred rows
-- at a time (bench/history.md); now price_history's inserts feed price_latest only, and
-- rollUpCandles (price-rollup.ts) writes the candles in batches, on a timer, from the rows inserted
-- since the last roll-up (price_rollup_state). The route merges the rows not yet rolled up itself
-- (price-queries.ts), so its answers do not depend on when the last roll-up ran.

DROP VIEW IF EXISTS price_candles_1m_mv;

DROP VIEW IF EXISTS price_candles_1h_mv;

DROP VIEW IF EXISTS price_candles_1d_mv;

-- The view-fed candles go; the first roll-up rebuilds every bucket from price_history (the
-- roll-up state starts empty), so nothing stored is lost.
DROP TABLE IF EXISTS price_candles_1m;

DROP TABLE IF EXISTS price_candles_1h;

DROP TABLE IF EXISTS price_candles_1d;

-- When the row was inserted: what a roll-up selects its new rows by. Materialized at once, so the rows
-- already stored keep the time of this migration (before any roll-up) rather than the time of each read.
ALTER TABLE price_history ADD COLUMN IF NOT EXISTS inserted_at DateTime64(3, 'UTC') DEFAULT now64(3);

ALTER TABLE price_history MATERIALIZE COLUMN inserted_at SETTINGS mutations_sync = 2;

-- Parts are written in time order, so a part or granule wholly before the last roll-up is skipped.
ALTER TABLE price_history ADD INDEX IF NOT EXISTS price_history_inserted_at inserted_at TYPE minmax GRANULARITY 1;

ALTER TABLE price_history MATERIALIZE INDEX price_history_inserted_at SETTINGS mutations_sync = 2;

-- Candles: as 002's (AggregatingMergeTree: read with the -Merge combinators and GROUP BY; open and
-- close the first and last non-null value of the bucket by observed_at), filled by the roll-up with
-- the aggregate states of the new rows only, so a roll-up costs what its new rows cost whatever the
-- retention. version is the newest inserted_at of the rows in a bucket's states: a roll-up adds only
-- rows inserted after it, so one done again after stopping half way counts nothing twice.
CREATE TABLE IF NOT EXISTS price_rollup_1m
(
    provider    LowCardinality(String),
    market_id   String,
    bucket      DateTime('UTC'),
    outcome_id  String,
    mid_open    AggregateFunction(argMin, Nullable(Float64), DateTime64(3, 'UTC')),
    mid_high    SimpleAggregateFunction(max, Nullable(Float64)),
    mid_low     SimpleAggregateFunction(min, Nullable(Float64)),
    mid_close   AggregateFunction(argMax, Nullable(Float64), DateTime64(3, 'UTC')),
    last_open   AggregateFunction(argMin, Nullable(Float64), DateTime64(3, 'UTC')),
    last_high   SimpleAggregateFunction(max, Nullable(Float64)),
    last_low    SimpleAggregateFunction(min, Nullable(Float64)),
    last_close  AggregateFunction(argMax, Nullable(Float64), DateTime64(3, 'UTC')),
    price_open  AggregateFunction(argMin, Nullable(Float64), DateTime64(3, 'UTC')),
    price_high  SimpleAggregateFunction(max, Nullable(Float64)),
    price_low   SimpleAggregateFunction(min, Nullable(Float64)),
    price_close AggregateFunction(argMax, Nullable(Float64), DateTime64(3, 'UTC')),
    changes     SimpleAggregateFunction(sum, UInt64),
    version     SimpleAggregateFunction(max, DateTime64(3, 'UTC'))
)
ENGINE = AggregatingMergeTree
PARTITION BY toYYYYMM(bucket)
ORDER BY (provider, market_id, bucket, outcome_id);

CREATE TABLE IF NOT EXISTS price_rollup_1h AS price_rollup_1m;

CREATE TABLE IF NOT EXISTS price_rollup_1d AS price_rollup_1m;

-- How far the candles are rolled up: every price_history row inserted at or before rolled_to is in
-- them. Written after a roll-up's three inserts, so a roll-up stopped half way is done again (each
-- table adding only what its version says it lacks).
CREATE TABLE IF NOT EXISTS price_rollup_state
(
    name      String,
    rolled_to DateTime64(3, 'UTC'),
    written   DateTime64(3, 'UTC') DEFAULT now64(3)
)
ENGINE = ReplacingMergeTree(written)
ORDER BY name;
