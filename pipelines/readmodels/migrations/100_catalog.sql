-- Catalog read model (spec: "GET /v1/markets", "Catalog market row").
-- Tables are unqualified: the History running them is bound to its database (random per test).
-- Times are Unix milliseconds (Int64) to stay exact across chdb and the server.

-- What each poller's listing crawl saw, staged by the catalog stage until a snapshot is built from
-- it. One partition per crawl, dropped once a newer crawl of the same venue has been built.
-- ReplacingMergeTree: a redelivered raw record lands on the same key (idempotent sink).
-- `listed` is 0 for records the catalog leaves out (not open, venue_1 multi-leg parlays): they
-- still count towards the crawl's completeness.
CREATE TABLE IF NOT EXISTS catalog_crawl_rows (
  provider LowCardinality(String),
  crawl_id String,
  -- The raw record the row came from (a venue_5 question gives one row per outcome market).
  record_id String,
  native_id String,
  title String,
  category LowCardinality(String),
  listed UInt8
) ENGINE = ReplacingMergeTree PARTITION BY crawl_id ORDER BY (provider, crawl_id, native_id);

-- One row per finished crawl: when its first read began and how many raw records it read.
CREATE TABLE IF NOT EXISTS catalog_crawls (
  provider LowCardinality(String),
  crawl_id String,
  started_at Int64,
  completed_at Int64,
  row_count UInt64
) ENGINE = ReplacingMergeTree ORDER BY (provider, crawl_id);

-- Snapshot rows in walk order: keyset reads seek to (snapshot_id, pos, id) through the primary
-- key, so a page 10,000 deep costs what page 1 costs.
CREATE TABLE IF NOT EXISTS catalog_rows (
  snapshot_id String,
  pos UInt8,
  category LowCardinality(String),
  id String,
  provider LowCardinality(String),
  title String
) ENGINE = MergeTree PARTITION BY snapshot_id ORDER BY (snapshot_id, pos, id);

-- The same rows keyed by category first, for category-filtered walks.
CREATE TABLE IF NOT EXISTS catalog_rows_by_category (
  snapshot_id String,
  pos UInt8,
  category LowCardinality(String),
  id String,
  provider LowCardinality(String),
  title String
) ENGINE = MergeTree PARTITION BY snapshot_id ORDER BY (snapshot_id, category, pos, id);

-- Per-(category, provider) counts precomputed at build: pagination.total is a sum of at most 99.
CREATE TABLE IF NOT EXISTS catalog_counts (
  snapshot_id String,
  category LowCardinality(String),
  pos UInt8,
  n UInt64
) ENGINE = MergeTree PARTITION BY snapshot_id ORDER BY (snapshot_id, category, pos);

CREATE TABLE IF NOT EXISTS catalog_snapshots (
  snapshot_id String,
  built_at Int64,
  observed_at Nullable(Int64),
  row_count UInt64
) ENGINE = MergeTree PARTITION BY snapshot_id ORDER BY snapshot_id;
