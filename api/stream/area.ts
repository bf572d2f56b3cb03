// Composition of the push stream for an API process. In: config and the log, serde and topics of
// the backbone. Out: deps.stream for buildApp (api/routes/v1/stream.ts) and stop(), which closes
// every open stream before the hub stops tailing.
import type { Config } from '../../lib/config.ts';
import type { Log } from '../../pipelines/log/types.ts';
import type { Serde } from '../../pipelines/serde/index.ts';
import type { TopicMap } from '../../pipelines/topics.ts';
import type { StreamDeps } from '../routes/v1/stream.ts';
import { StreamHub } from './hub.ts';
import { CatalogWatch } from './catalog.ts';
import { QuotesHub } from './quotes-hub.ts';
import { AHEAD_MS } from './connection.ts';
import type { SnapshotStore } from '../../pipelines/readmodels/snapshots.ts';

/** How often the catalog channel looks for a new catalog snapshot (built every CATALOG_REFRESH_MS). */
const CATALOG_POLL_MS = 2_000;

export interface StreamArea {
  deps: StreamDeps;
  hub: StreamHub;
  quotes: QuotesHub | undefined;
  stop(): Promise<void>;
}

export async function startStreamArea(
  config: Pick<Config, 'STREAM_HEARTBEAT_MS' | 'STREAM_BUFFER_BYTES' | 'STREAM_FLUSH_MS' | 'STREAM_JOURNAL' | 'STREAM_RESUME_MS'> & Partial<Pick<Config, 'STREAM_QUOTES_LOOKBACK_MS'>>,
  parts: {
    log: Log;
    serde: Serde;
    topics: TopicMap;
    clock?: () => number;
    catalog?: { store: SnapshotStore; name: string; pollMs?: number };
    /**
     * Serve channel=quotes: tail the raw venue topics too (every one must exist); 'on-demand' from the
     * first quotes subscription (that one may be told to retry while the hub catches up).
     */
    quotes?: boolean | 'on-demand';
  },
): Promise<StreamArea> {
  const hub = await StreamHub.start({ ...parts, journalSize: config.STREAM_JOURNAL, resumeMs: config.STREAM_RESUME_MS });
  const lookback = config.STREAM_QUOTES_LOOKBACK_MS;
  const startQuotes = () =>
    QuotesHub.start({ ...parts, journalSize: config.STREAM_JOURNAL, resumeMs: config.STREAM_RESUME_MS, fromTime: lookback === undefined ? undefined : (parts.clock ?? Date.now)() - lookback });
  const quotes = parts.quotes === true ? await startQuotes() : undefined;
  const catalog = parts.catalog ? await CatalogWatch.start({ ...parts.catalog, pollMs: parts.catalog.pollMs ?? CATALOG_POLL_MS }) : undefined;
  const deps: StreamDeps = {
    hub,
    catalog,
    quotes,
    bufferBytes: config.STREAM_BUFFER_BYTES,
    heartbeatMs: config.STREAM_HEARTBEAT_MS,
    flushMs: config.STREAM_FLUSH_MS,
    readyMs: 5_000,
    aheadMs: AHEAD_MS,
    connections: new Set(),
  };
  let starting: Promise<QuotesHub> | undefined;
  let stopped = false;
  if (parts.quotes === 'on-demand')
    deps.startQuotes = () =>
      (starting ??= startQuotes().then(async (h) => {
        // A stop while it started: the hub it made is stopped too.
        if (stopped) await h.stop();
        else deps.quotes = h;
        return h;
      }, (err: unknown) => {
        // Not kept: the next quotes subscription tries again.
        starting = undefined;
        throw err;
      }));
  return {
    deps,
    hub,
    quotes,
    async stop() {
      for (const c of [...deps.connections]) c.close();
      catalog?.stop();
      stopped = true;
      await (deps.quotes ?? quotes)?.stop();
      await hub.stop();
    },
  };
}
