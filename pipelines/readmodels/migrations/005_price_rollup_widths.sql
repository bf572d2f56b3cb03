-- 005_price_rollup_widths: a roll-up writes the three candle widths in one statement. Each statement
-- costs chdb a few ms however small (bench/history.md, 2026-11-27), and a roll-up read the new rows
-- three times, once per width: now it reads them once, groups them by width and bucket, and inserts
-- the states into price_rollup_widths, which keeps nothing (ENGINE = Null); a view per width passes
-- that width's states on to its table. Only the roll-up writes here (price_history's inserts do not
-- reach these views), so the sink's inserts cost what they did.
CREATE TABLE IF NOT EXISTS price_rollup_widths
(
    width       LowCardinality(String),
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
ENGINE = Null;

CREATE MATERIALIZED VIEW IF NOT EXISTS price_rollup_1m_mv TO price_rollup_1m AS
SELECT provider, market_id, bucket, outcome_id, mid_open, mid_high, mid_low, mid_close, last_open, last_high, last_low, last_close,
       price_open, price_high, price_low, price_close, changes, version
FROM price_rollup_widths WHERE width = '1m';

CREATE MATERIALIZED VIEW IF NOT EXISTS price_rollup_1h_mv TO price_rollup_1h AS
SELECT provider, market_id, bucket, outcome_id, mid_open, mid_high, mid_low, mid_close, last_open, last_high, last_low, last_close,
       price_open, price_high, price_low, price_close, changes, version
FROM price_rollup_widths WHERE width = '1h';

CREATE MATERIALIZED VIEW IF NOT EXISTS price_rollup_1d_mv TO price_rollup_1d AS
SELECT provider, market_id, bucket, outcome_id, mid_open, mid_high, mid_low, mid_close, last_open, last_high, last_low, last_close,
       price_open, price_high, price_low, price_close, changes, version
FROM price_rollup_widths WHERE width = '1d';
