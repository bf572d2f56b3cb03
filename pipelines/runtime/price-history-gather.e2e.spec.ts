// sink.price-history gathering its rows over batches (StageDef.accumulate) on the embedded backbone:
// killed while it holds rows it has not inserted, or stopped then, and started again, it loses no
// change and writes none twice, and a replay from earliest gives the same table. The sink runs in a
// child process (testdata/price-gather.ts): chdb opens one data directory per process, and a kill
// must be a real one.
import { describe, expect, it } from 'vitest';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { randomPrefix, spawnStageProcess } from './testkit.ts';
import type { PriceGatherSettings } from './testdata/price-gather.ts';

const here = path.dirname(fileURLToPath(import.meta.url));
const MARKETS = ['1000001', '1000002', '1000003', '1000004', '1000005', '1000006'];
const TOTAL = MARKETS.length * 10;
const EXPECTED = MARKETS.map((market_id) => ({ market_id, n: 5, bids: [0.3, 0.31, 0.32, 0.33, 0.34] }));

/** Runs testdata/price-gather.ts; its lines by first word. `kill`: SIGKILL it at its `held` line. */
async function run(settings: PriceGatherSettings, kill = false): Promise<Map<string, string>> {
  const lines = new Map<string, string>();
  const p = spawnStageProcess(path.join(here, 'testdata/price-gather.ts'), 'PRICE_GATHER', settings, (line, child) => {
    const i = line.indexOf(' ');
    if (i < 0) return;
    lines.set(line.slice(0, i), line.slice(i + 1));
    if (kill && line.startsWith('held ')) child.kill('SIGKILL');
  });
  await p.exited;
  return lines;
}

describe('sink.price-history gathering rows across batches', () => {
  it('killed while it holds rows not yet inserted: nothing of them committed, and after a restart each change once, as a replay writes them', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'pm-price-gather-'));
    const prefix = randomPrefix();
    const held = await run({ mode: 'hold', dir, prefix }, true);
    // Every record handled, and the second read's batches still uncommitted when it died.
    expect(held.get('held')).toMatch(new RegExp(`^${TOTAL} lag (\\d+)$`));
    expect(Number(held.get('held')!.split(' ')[2])).toBeGreaterThanOrEqual(TOTAL / 2);

    const finish = await run({ mode: 'finish', dir, prefix });
    const before = JSON.parse(finish.get('before')!) as { lag: number; rows: Array<{ market_id: string; n: string }> };
    // What was inserted before the kill was committed; what was held was neither.
    expect(before.lag).toBeGreaterThanOrEqual(TOTAL / 2);
    const stored = before.rows.reduce((n, r) => n + Number(r.n), 0);
    expect(stored).toBeLessThan(MARKETS.length * 5);
    expect(JSON.parse(finish.get('finished')!)).toEqual(EXPECTED);
    expect(JSON.parse(finish.get('replayed')!)).toEqual(EXPECTED);
  }, 120_000);

  it('stopped while it holds rows: the stop inserts them and commits their batches; a restart writes nothing more', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'pm-price-gather-'));
    const prefix = randomPrefix();
    const held = await run({ mode: 'hold', dir, prefix, stop: true });
    expect(Number(held.get('held')!.split(' ')[2])).toBeGreaterThanOrEqual(TOTAL / 2);
    expect(held.get('stopped')).toBe('lag 0');

    const finish = await run({ mode: 'finish', dir, prefix });
    expect(JSON.parse(finish.get('before')!)).toEqual({ lag: 0, rows: EXPECTED });
    expect(JSON.parse(finish.get('finished')!)).toEqual(EXPECTED);
    expect(JSON.parse(finish.get('replayed')!)).toEqual(EXPECTED);
  }, 120_000);
});
