// Disk use of the embedded default, per topic and per history table, read from the files alone (no
// lock taken: the service keeps the log and chdb open while bin/status.ts runs). In: DATA_DIR and the
// history database's name. Out: bytes per topic (DATA_DIR/log/topics/<topic>) and per table (chdb's
// Atomic layout: metadata/<db>/<table>.sql names the table's UUID, its parts are under
// store/<uuid[0..3]>/<uuid>/). Kafka and a ClickHouse server keep their files elsewhere: their own
// tools report those (kafka-log-dirs.sh, system.parts).
import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';

/** Bytes of every file under dir (0 when it does not exist). */
export async function dirBytes(dir: string): Promise<number> {
  let entries;
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch {
    return 0;
  }
  let total = 0;
  for (const e of entries) {
    const p = join(dir, e.name);
    if (e.isDirectory()) total += await dirBytes(p);
    else if (e.isFile()) total += await stat(p).then((s) => s.size, () => 0);
  }
  return total;
}

export interface DiskUse {
  topics: Map<string, number>;
  tables: Map<string, number>;
}

export async function embeddedDiskUse(dataDir: string, database: string): Promise<DiskUse> {
  const topics = new Map<string, number>();
  const topicsDir = join(dataDir, 'log', 'topics');
  for (const name of await readdir(topicsDir).catch(() => [] as string[])) topics.set(name, await dirBytes(join(topicsDir, name)));
  const tables = new Map<string, number>();
  const chdb = join(dataDir, 'chdb');
  const meta = join(chdb, 'metadata', database);
  for (const f of await readdir(meta).catch(() => [] as string[])) {
    if (!f.endsWith('.sql')) continue;
    const uuid = /UUID '([0-9a-f-]{36})'/.exec(await readFile(join(meta, f), 'utf8'))?.[1];
    tables.set(f.slice(0, -4), uuid ? await dirBytes(join(chdb, 'store', uuid.slice(0, 3), uuid)) : 0);
  }
  return { topics, tables };
}

const MB = 1024 * 1024;
const fmt = (n: number) => (n >= 10 * MB ? `${Math.round(n / MB)} MB` : `${(n / MB).toFixed(1)} MB`);

/** One line per kind, largest first: `disk: log 412 MB (raw.venue_1 80 MB, ...)`. */
export function formatDiskUse(d: DiskUse): string[] {
  const line = (label: string, m: Map<string, number>) => {
    const rows = [...m].sort((a, b) => b[1] - a[1]);
    const total = rows.reduce((a, [, n]) => a + n, 0);
    return `disk: ${label} ${fmt(total)} (${rows.map(([k, n]) => `${k} ${fmt(n)}`).join(', ') || 'none'})`;
  };
  return [line('log', d.topics), line('history', d.tables)];
}
