-- 001_backbone: the backbone's history tables. One SQL set for chdb and a ClickHouse server.
-- Every table is a ReplacingMergeTree whose sorting key contains the identity of the log record that
-- wrote the row, so a redelivered or replayed record collapses into the row it already wrote (read
-- with FINAL, or aggregate, for exact answers before background merges run).

-- Every raw read of every venue, as read (topic raw.venue_N).
CREATE TABLE IF NOT EXISTS raw_records
(
    venue           LowCardinality(String),
    record_type     LowCardinality(String),
    native_id       String,
    read_started_at DateTime64(3, 'UTC'),
    read_id         Nullable(String),
    source_url      Nullable(String),
    payload         String,
    topic           LowCardinality(String),
    partition       UInt32,
    offset          UInt64,
    logged_at       DateTime64(3, 'UTC')
)
ENGINE = ReplacingMergeTree
PARTITION BY toYYYYMM(read_started_at)
ORDER BY (venue, native_id, read_started_at, topic, partition, offset);

-- Current canonical shape of every venue market (topic canonical.markets, compacted): one row per
-- market after merges; version is the source offset, so an older redelivery never replaces a newer row,
-- and a tombstone (is_deleted = 1) hides the market under FINAL.
CREATE TABLE IF NOT EXISTS canonical_markets
(
    provider        LowCardinality(String),
    market_id       String,
    event_id        Nullable(String),
    title           String,
    status          LowCardinality(String),
    category        LowCardinality(Nullable(String)),
    league          LowCardinality(Nullable(String)),
    market_type     LowCardinality(Nullable(String)),
    read_started_at DateTime64(3, 'UTC'),
    body            String,
    version         UInt64,
    is_deleted      UInt8 DEFAULT 0
)
ENGINE = ReplacingMergeTree(version, is_deleted)
ORDER BY (provider, market_id);

-- Every version of every matched sports event (topic matched.events): history of how matching saw a
-- game. Identity is (event_id, topic, partition, offset); the latest version of an event is the row
-- with the greatest offset (is_deleted = 1 when it was removed).
CREATE TABLE IF NOT EXISTS matched_events
(
    event_id         String,
    league           LowCardinality(String),
    sport            LowCardinality(String),
    title            String,
    scheduled_date   Date,
    scheduled_start  Nullable(DateTime64(3, 'UTC')),
    participant_keys Array(String),
    population       LowCardinality(String),
    submarket_count  UInt32,
    observed_at      DateTime64(3, 'UTC'),
    body             String,
    is_deleted       UInt8 DEFAULT 0,
    topic            LowCardinality(String),
    partition        UInt32,
    offset           UInt64
)
ENGINE = ReplacingMergeTree
ORDER BY (event_id, topic, partition, offset);
