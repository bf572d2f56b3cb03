// dropCodePages with chdb open in this process (Linux, with the addon built by bin/build-workers.ts):
// libchdb's resident code falls, and chdb and node run on as before with the pages mapped again.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ChdbHistory } from '../readmodels/chdb-history.ts';
import { codePagesDroppable, dropCodePages, parseSmaps } from './code-pages.ts';

const libchdbKb = () =>
  parseSmaps(readFileSync('/proc/self/smaps', 'utf8'))
    .filter((m) => /libchdb/.test(m.path) && m.perms === 'r-xp')
    .reduce((s, m) => s + m.rssKb, 0);

// In CI the addon must be there (.ci/run installs a compiler; make install builds it): a missing build
// is a failure there, not a skip. Elsewhere (no compiler or headers) the service runs without it.
describe.runIf(process.env.CI === 'true')('the code-pages addon in CI', () => {
  it('is built and loads', () => {
    expect(codePagesDroppable()).toBe(true);
  });
});

describe.runIf(codePagesDroppable())('dropCodePages with chdb open', () => {
  it("unmaps libchdb's resident code, and chdb answers as before after it", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'pm-code-pages-'));
    const h = await ChdbHistory.open(path.join(dir, 'chdb'), `pages_${Math.random().toString(36).slice(2, 8)}`);
    try {
      const q = 'SELECT count(), sum(number), max(toString(number)) FROM numbers(200000)';
      const before = await h.query(q);
      const resident = libchdbKb();
      expect(resident).toBeGreaterThan(10_000);
      const dropped = dropCodePages();
      expect(dropped).toBeGreaterThanOrEqual(resident);
      expect(libchdbKb()).toBeLessThan(resident / 4);
      expect(await h.query(q)).toEqual(before);
      expect(libchdbKb()).toBeGreaterThan(0);
    } finally {
      await h.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
