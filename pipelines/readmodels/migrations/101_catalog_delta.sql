-- Change-only listing crawls (POLL_CHANGE_ONLY_LISTING): a delta crawl writes only the records that
-- changed since the feed's last publish, and its end marker counts them (`emitted`) and names what
-- left the listing (`vanished`, `<record_type>:<native_id>`, the rows' record_id). The catalog builds
-- a venue's listing from its last full crawl and the delta crawls after it (store.ts). Full crawls
-- keep delta = 0, emitted = 0 and no vanished.
ALTER TABLE catalog_crawls ADD COLUMN IF NOT EXISTS delta UInt8 DEFAULT 0;
ALTER TABLE catalog_crawls ADD COLUMN IF NOT EXISTS emitted UInt64 DEFAULT 0;
ALTER TABLE catalog_crawls ADD COLUMN IF NOT EXISTS vanished Array(String) DEFAULT [];
