// niceNativeThreads against chdb in this process (Linux): its pools' threads end at the nice value.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ChdbHistory } from '../readmodels/chdb-history.ts';
import { niceNativeThreads, readTasks } from './native-nice.ts';

describe.runIf(process.platform === 'linux')('niceNativeThreads with chdb open', () => {
  it('sets every thread chdb started to the nice value', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'pm-nice-'));
    const h = await ChdbHistory.open(path.join(dir, 'chdb'), `nice_${Math.random().toString(36).slice(2, 8)}`);
    try {
      await h.query('SELECT count() FROM numbers(100000)');
      const native = () => readTasks().filter((t) => !/^(node|libuv|V8 )/.test(t.comm));
      expect(native().length).toBeGreaterThan(0);
      const stop = niceNativeThreads(12, 60_000);
      stop();
      const still = native().filter((t) => t.nice < 12);
      expect(still).toEqual([]);
    } finally {
      await h.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
