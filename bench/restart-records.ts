// What the pollers wrote in the first window after each start of a service on one embedded DATA_DIR
// (bench/sports-restart.ts --count-s, after its runs; or by hand on a kept DATA_DIR):
//
//   npx tsx bench/restart-records.ts --data-dir DIR --starts 1764370000000,1764370100000 [--window-s 60]
//
// In: the stopped service's embedded log and registry. Out, per start: the raw records whose
// timestamp (the time their read began) falls in [start, start + window), or up to the next start
// when that comes first (by the log's offsets for those times: a marker is stamped with its crawl's
// start, so a crawl that began just before a window's end has its marker counted in it), by feed (the read id's
// first part; `final` records have none), and the `pollers.state` records written in that window.
import { loadConfig } from '../lib/config.ts';
import { createLog } from '../pipelines/log/index.ts';
import { createRegistry } from '../pipelines/registry/index.ts';
import { avroSerde } from '../pipelines/serde/index.ts';
import { restoreContext } from '../pipelines/runtime/runner.ts';
import { defineTopics, RAW_TOPIC_IDS, topicSettings, type RawRecord } from '../pipelines/topics.ts';

export interface WindowCount {
  start: number;
  /** The window's length: `windowMs`, or less where the next start came before it ended. */
  ms: number;
  /** Raw records by feed (`listing`, `sports`, `-` for none). */
  raw: Record<string, number>;
  /** Raw bytes of those records' payloads. */
  payloadBytes: number;
  state: number;
}

export async function countRestartRecords(dataDir: string, starts: number[], windowMs: number): Promise<WindowCount[]> {
  const config = loadConfig({ ...process.env, DATA_DIR: dataDir, KAFKA_BROKERS: '', SCHEMA_REGISTRY_URL: '', LOG_LEVEL: 'silent' });
  const log = await createLog(config);
  const registry = createRegistry(config);
  const serde = avroSerde(registry);
  const topics = defineTopics(topicSettings(config));
  const ctx = restoreContext({ log, serde, topics }, 'bench-restart-records');
  const out: WindowCount[] = [];
  try {
    for (const [i, start] of starts.entries()) {
      // Up to the next start: what a window counts is this run's.
      const end = Math.min(start + windowMs, starts[i + 1] ?? Infinity);
      const w: WindowCount = { start, ms: end - start, raw: {}, payloadBytes: 0, state: 0 };
      for (const id of [...RAW_TOPIC_IDS, 'pollers.state' as const]) {
        const name = topics[id].name;
        const from = await log.offsetsForTime(name, start);
        const to = await log.offsetsForTime(name, end);
        await ctx.readRange(id, from, to, (rs) => {
          for (const r of rs) {
            if (id === 'pollers.state') {
              w.state++;
              continue;
            }
            const v = r.value as RawRecord | null;
            if (!v) continue;
            const feed = v.read_id ? v.read_id.slice(0, v.read_id.indexOf(':')) : '-';
            w.raw[feed] = (w.raw[feed] ?? 0) + 1;
            w.payloadBytes += v.payload.length;
          }
        });
      }
      out.push(w);
    }
  } finally {
    await log.close();
    await registry.close?.();
  }
  return out;
}

export function formatCounts(counts: WindowCount[]): string[] {
  return counts.map((c, i) => {
    const feeds = Object.entries(c.raw)
      .sort()
      .map(([f, n]) => `${f} ${n}`)
      .join(', ');
    return `${i === 0 ? 'fresh start' : `restart ${i}`}: raw records in the first ${(c.ms / 1000).toFixed(0)} s: ${feeds || 'none'} (payload ${(c.payloadBytes / 1e6).toFixed(1)} MB); pollers.state records ${c.state}`;
  });
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { benchArgs } = await import('./args.ts');
  const cli = benchArgs({ 'data-dir': '', starts: '', 'window-s': 60 });
  const starts = cli.starts.split(',').filter(Boolean).map(Number);
  const counts = await countRestartRecords(cli['data-dir'], starts, cli['window-s'] * 1000);
  for (const line of formatCounts(counts)) console.log(line);
}
