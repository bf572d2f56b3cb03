// A process for history-worker-abandon.e2e.spec.ts: opens chdb on the history worker at
// ABANDON_HISTORY.chdbPath. 'busy': writes `rows` rows to a table, starts a query that keeps the worker
// inside chdb for minutes, abandons the worker (as an operator's stop past its deadline does), closes
// the host and exits 0. 'read': prints the table's row count.
import { EmbeddedRegistry } from '../../registry/embedded.ts';
import { abandonHistoryWorker, HistoryHost } from '../history-host.ts';
import { endProcess } from '../../../lib/end-process.ts';

export interface AbandonHistorySettings {
  mode: 'busy' | 'read';
  chdbPath: string;
  registryDir: string;
  database: string;
  rows: number;
}

const s = JSON.parse(process.env.ABANDON_HISTORY!) as AbandonHistorySettings;
const host = await HistoryHost.open({ chdbPath: s.chdbPath, database: s.database, stages: [], registry: new EmbeddedRegistry(s.registryDir) });
if (s.mode === 'busy') {
  await host.exec('CREATE TABLE IF NOT EXISTS kept (n UInt64) ENGINE = MergeTree ORDER BY n');
  await host.insert('kept', Array.from({ length: s.rows }, (_, n) => ({ n })));
  // Minutes of chdb's native code on the worker thread, as a raw-history batch on a loaded machine.
  const long = host.query('SELECT count() FROM numbers(1000000000000) WHERE sipHash64(number) = 0').catch((e: Error) => e.message);
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
