// A process for history-worker-abandon.e2e.spec.ts: chdb on the history worker in ABANDON_HISTORY.dir.
// 'busy': writes `rows` rows to a table, starts a query that keeps the worker inside chdb for hours,
// abandons the worker (as an operator's stop past its deadline does), closes the host and ends.
// 'read': prints the table's row count.
// 'stage': the raw-history sink on the embedded log, its batch of `rows` records queued on the worker
// behind such a query; the service's bounded stop (stopWithin) with its deadline, then the end.
// 'resume': the sink again on the same log until it has caught up; prints the rows it holds.
import path from 'node:path';
import { EmbeddedRegistry } from '../../registry/embedded.ts';
import { avroSerde } from '../../serde/index.ts';
import { abandonHistoryWorker, HistoryHost } from '../history-host.ts';
import { stageGroupId, startStage } from '../runner.ts';
import { rawHistorySink } from '../sinks.ts';
import { embeddedBackbone, produceRaw, rawMarket } from '../testkit.ts';
import { endProcess } from '../../../lib/end-process.ts';
import { stopWithin } from '../../../bin/run.ts';

export interface AbandonHistorySettings {
  mode: 'busy' | 'read' | 'stage' | 'resume';
  dir: string;
  database: string;
  /** The topic prefix of 'stage' and 'resume'. */
  prefix: string;
  rows: number;
}

const LONG_QUERY = 'SELECT count() FROM numbers(1000000000000) WHERE sipHash64(number) = 0';
const s = JSON.parse(process.env.ABANDON_HISTORY!) as AbandonHistorySettings;
const registry = new EmbeddedRegistry(path.join(s.dir, 'registry'));
const warn = (obj: object, msg: string) => console.log(`${msg} ${JSON.stringify(obj)}`);

if (s.mode === 'busy' || s.mode === 'read') {
  const host = await HistoryHost.open({ chdbPath: path.join(s.dir, 'chdb'), database: s.database, stages: [], registry });
  if (s.mode === 'busy') {
    await host.exec('CREATE TABLE IF NOT EXISTS kept (n UInt64) ENGINE = MergeTree ORDER BY n');
    await host.insert('kept', Array.from({ length: s.rows }, (_, n) => ({ n })));
    const long = host.query(LONG_QUERY).catch((e: Error) => e.message);
    console.log('busy');
    await new Promise((r) => setTimeout(r, 300));
    abandonHistoryWorker(new Error('stop deadline'));
    console.log(`abandoned: ${await long}`);
    await host.close();
    console.log('closed');
    endProcess('SIGTERM');
  } else {
    const [row] = await host.query<{ n: string }>('SELECT count() AS n FROM kept');
    console.log(`rows ${row!.n}`);
    await host.close();
    process.exit(0);
  }
} else {
  const b = await embeddedBackbone({ dir: s.dir, prefix: s.prefix, serde: avroSerde(registry), partitions: 1, historyWorker: { registry } });
  const venue = 'venue_4';
  if (s.mode === 'stage') {
    const p = await b.log.producer();
    await produceRaw(b, p, Array.from({ length: s.rows }, (_, i) => rawMarket(venue, `m${i}`, `Market ${i}`)));
    await p.close();
    // The worker is inside chdb for hours: the sink's batch waits behind it, as behind a slow insert.
    void b.history.query(LONG_QUERY).catch(() => undefined);
    const host = b.offload as HistoryHost;
    const batch = host.batch.bind(host);
    let sent!: () => void;
    const inFlight = new Promise<void>((r) => (sent = r));
    host.batch = (...a) => (sent(), batch(...a));
    const sink = await startStage(rawHistorySink, b);
    console.log('busy');
    // Stopped once the batch is on its way to the worker (in flight, behind the query).
    await inFlight;
    const abandoned = await stopWithin([() => sink.stop(), () => b.close()], 500, { warn });
    console.log(`stopped abandoned=${abandoned}`);
    endProcess('SIGTERM');
  } else {
    const committed = await b.log.groupOffsets(stageGroupId(rawHistorySink, b.topics), b.topics[`raw.${venue}`].name);
    console.log(`committed before ${JSON.stringify([...committed].map(([p, o]) => [p, Number(o)]))}`);
    const sink = await startStage(rawHistorySink, b);
    await sink.caughtUp(30_000);
    await sink.stop();
    const [row] = await b.history.query<{ n: string }>(`SELECT count() AS n FROM raw_records FINAL WHERE venue = '${venue}'`);
    console.log(`rows ${row!.n}`);
    await b.close();
    process.exit(0);
  }
}
