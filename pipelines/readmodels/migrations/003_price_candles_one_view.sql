-- 003_price_candles_one_view: the 1m, 1h and 1d candles in one table fed by one materialized view.
-- In the service's pipeline the price-history sink writes many small inserts (a batch per raw topic
-- partition per crawl), and chdb's fixed cost of an insert is mostly its views: about 4 ms of CPU per
-- view and insert (a part written, the view's query planned), so three candle views cost about 13 ms
-- an insert where one view over the three widths (ARRAY JOIN) costs about 6.5 (bench/history.md,
-- "What the sink adds to the service's pipeline"). price_candles_1m, _1h and _1d stay, as views of
-- the one table, so the route and the data teams' queries read them as before.
CREATE TABLE IF NOT EXISTS price_candles
(
    width      UInt32,
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
ORDER BY (width, provider, market_id, bucket, outcome_id);

-- The old views stop first, so no insert lands in both the old tables and the new one.
DROP VIEW IF EXISTS price_candles_1m_mv;

DROP VIEW IF EXISTS price_candles_1h_mv;

DROP VIEW IF EXISTS price_candles_1d_mv;

-- Buckets start at whole multiples of the width, UTC (toStartOfMinute, toStartOfHour and
-- toStartOfDay of a UTC time are the same buckets).
CREATE MATERIALIZED VIEW IF NOT EXISTS price_candles_mv TO price_candles AS
SELECT width, provider, market_id, toDateTime(intDiv(toUnixTimestamp(observed_at), width) * width, 'UTC') AS bucket, outcome_id,
       argMinState(mid, observed_at) AS mid_open, max(mid) AS mid_high, min(mid) AS mid_low, argMaxState(mid, observed_at) AS mid_close,
       argMinState(last, observed_at) AS last_open, max(last) AS last_high, min(last) AS last_low, argMaxState(last, observed_at) AS last_close,
       argMinState(price, observed_at) AS price_open, max(price) AS price_high, min(price) AS price_low, argMaxState(price, observed_at) AS price_close,
       count() AS changes
FROM price_history
ARRAY JOIN [60, 3600, 86400] AS width
GROUP BY width, provider, market_id, bucket, outcome_id;

-- The candles the old tables hold, moved once: only while the new table is still empty (a second
-- process migrating at the same time finds it filled and moves nothing).
INSERT INTO price_candles SELECT 60 AS width, * FROM price_candles_1m WHERE (SELECT count() FROM price_candles WHERE width = 60) = 0;

INSERT INTO price_candles SELECT 3600 AS width, * FROM price_candles_1h WHERE (SELECT count() FROM price_candles WHERE width = 3600) = 0;

INSERT INTO price_candles SELECT 86400 AS width, * FROM price_candles_1d WHERE (SELECT count() FROM price_candles WHERE width = 86400) = 0;

DROP TABLE IF EXISTS price_candles_1m;

DROP TABLE IF EXISTS price_candles_1h;

DROP TABLE IF EXISTS price_candles_1d;

CREATE VIEW IF NOT EXISTS price_candles_1m AS SELECT * EXCEPT width FROM price_candles WHERE width = 60;

CREATE VIEW IF NOT EXISTS price_candles_1h AS SELECT * EXCEPT width FROM price_candles WHERE width = 3600;

CREATE VIEW IF NOT EXISTS price_candles_1d AS SELECT * EXCEPT width FROM price_candles WHERE width = 86400;
