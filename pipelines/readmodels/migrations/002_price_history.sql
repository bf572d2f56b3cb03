-- 002_price_history: every observed change of a market's quote, per outcome, and its candles.
-- Written by sink.price-history (pipelines/runtime/sinks.ts) from the raw listings (raw.venue_N):
-- a row only when an outcome's quote differs from the last one stored for it (unchanged polls are
-- not written), so the table holds changes, and the candle tables below count them.

-- One row per change of one outcome's quote. Prices are probabilities 0..1 as market detail gives
-- them; mid is the midpoint of bid and ask (null unless both sides are quoted); price is the spec's
-- implied probability (mid, else the venue's mark or last). venue_time is the venue's own time of
-- the quote or record when it gives one; observed_at when the read that returned it began.
CREATE TABLE IF NOT EXISTS price_history
(
    provider    LowCardinality(String),
    market_id   String,
    outcome_id  String,
    bid         Nullable(Float64),
    ask         Nullable(Float64),
    last        Nullable(Float64),
    price       Nullable(Float64),
    mid         Nullable(Float64),
    bid_size    Nullable(Float64),
    ask_size    Nullable(Float64),
    venue_time  Nullable(DateTime64(3, 'UTC')),
    observed_at DateTime64(3, 'UTC') CODEC(Delta, ZSTD)
)
ENGINE = ReplacingMergeTree
PARTITION BY toYYYYMM(observed_at)
ORDER BY (provider, market_id, outcome_id, observed_at);

-- The newest stored quote of each outcome: what the sink compares a new observation with. Kept by
-- a materialized view of price_history, so it can never disagree with what was written.
CREATE TABLE IF NOT EXISTS price_latest
(
    provider    LowCardinality(String),
    market_id   String,
    outcome_id  String,
    bid         Nullable(Float64),
    ask         Nullable(Float64),
    last        Nullable(Float64),
    price       Nullable(Float64),
    bid_size    Nullable(Float64),
    ask_size    Nullable(Float64),
    observed_at DateTime64(3, 'UTC')
)
ENGINE = ReplacingMergeTree(observed_at)
ORDER BY (provider, market_id, outcome_id);

CREATE MATERIALIZED VIEW IF NOT EXISTS price_latest_mv TO price_latest AS
SELECT provider, market_id, outcome_id, bid, ask, last, price, bid_size, ask_size, observed_at
FROM price_history;

-- Other ids a market answers to on market detail (venue_2 slug and condition id, venue_8 id, the
-- venue_7 two-part id of the favourite line), newest mapping wins.
CREATE TABLE IF NOT EXISTS price_aliases
(
    provider    LowCardinality(String),
    alias       String,
    market_id   String,
    observed_at DateTime64(3, 'UTC')
)
ENGINE = ReplacingMergeTree(observed_at)
ORDER BY (provider, alias);

-- Candles: one row per outcome and bucket after merges (AggregatingMergeTree; read with the -Merge
-- combinators, GROUP BY). OHLC of mid, last and price (the listings of venue_6, venue_8 and venue_9
-- carry a mark only, so price is their one series). Open and close are the first and last non-null
-- value of the bucket by observed_at; changes counts the stored quote changes. Buckets without a
-- change have no row.
CREATE TABLE IF NOT EXISTS price_candles_1m
(
    provider   LowCardinality(String),
    market_id  String,
    bucket     DateTime('UTC'),
    outcome_id String,
    mid_open   AggregateFunction(argMin, Nullable(Float64), DateTime64(3, 'UTC')),
    mid_high   SimpleAggregateFunction(max, Nullable(Float64)),
    mid_low    SimpleAggregateFunction(min, Nullable(Float64)),
    mid_close  AggregateFunction(argMax, Nullable(Float64), DateTime64(3, 'UTC')),
    last_open  AggregateFunction(argMin, Nullable(Float64), DateTime64(3, 'UTC')),
    last_high  SimpleAggregateFunction(max, Nullable(Float64)),
    last_low   SimpleAggregateFunction(min, Nullable(Float64)),
    last_close AggregateFunction(argMax, Nullable(Float64), DateTime64(3, 'UTC')),
    price_open  AggregateFunction(argMin, Nullable(Float64), DateTime64(3, 'UTC')),
    price_high  SimpleAggregateFunction(max, Nullable(Float64)),
    price_low   SimpleAggregateFunction(min, Nullable(Float64)),
    price_close AggregateFunction(argMax, Nullable(Float64), DateTime64(3, 'UTC')),
    changes    SimpleAggregateFunction(sum, UInt64)
)
ENGINE = AggregatingMergeTree
PARTITION BY toYYYYMM(bucket)
ORDER BY (provider, market_id, bucket, outcome_id);

CREATE TABLE IF NOT EXISTS price_candles_1h AS price_candles_1m;

CREATE TABLE IF NOT EXISTS price_candles_1d AS price_candles_1m;

CREATE MATERIALIZED VIEW IF NOT EXISTS price_candles_1m_mv TO price_candles_1m AS
SELECT provider, market_id, toStartOfMinute(observed_at) AS bucket, outcome_id,
       argMinState(mid, observed_at) AS mid_open, max(mid) AS mid_high, min(mid) AS mid_low, argMaxState(mid, observed_at) AS mid_close,
       argMinState(last, observed_at) AS last_open, max(last) AS last_high, min(last) AS last_low, argMaxState(last, observed_at) AS last_close,
       argMinState(price, observed_at) AS price_open, max(price) AS price_high, min(price) AS price_low, argMaxState(price, observed_at) AS price_close,
       count() AS changes
FROM price_history
GROUP BY provider, market_id, bucket, outcome_id;

CREATE MATERIALIZED VIEW IF NOT EXISTS price_candles_1h_mv TO price_candles_1h AS
SELECT provider, market_id, toStartOfHour(observed_at) AS bucket, outcome_id,
       argMinState(mid, observed_at) AS mid_open, max(mid) AS mid_high, min(mid) AS mid_low, argMaxState(mid, observed_at) AS mid_close,
       argMinState(last, observed_at) AS last_open, max(last) AS last_high, min(last) AS last_low, argMaxState(last, observed_at) AS last_close,
       argMinState(price, observed_at) AS price_open, max(price) AS price_high, min(price) AS price_low, argMaxState(price, observed_at) AS price_close,
       count() AS changes
FROM price_history
GROUP BY provider, market_id, bucket, outcome_id;

CREATE MATERIALIZED VIEW IF NOT EXISTS price_candles_1d_mv TO price_candles_1d AS
SELECT provider, market_id, toStartOfDay(observed_at) AS bucket, outcome_id,
       argMinState(mid, observed_at) AS mid_open, max(mid) AS mid_high, min(mid) AS mid_low, argMaxState(mid, observed_at) AS mid_close,
       argMinState(last, observed_at) AS last_open, max(last) AS last_high, min(last) AS last_low, argMaxState(last, observed_at) AS last_close,
       argMinState(price, observed_at) AS price_open, max(price) AS price_high, min(price) AS price_low, argMaxState(price, observed_at) AS price_close,
       count() AS changes
FROM price_history
GROUP BY provider, market_id, bucket, outcome_id;
