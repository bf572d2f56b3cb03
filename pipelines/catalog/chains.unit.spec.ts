// Which crawls a venue's listing is built from (chooseChains): the newest crawl whose chain back to
// the last full crawl is completely staged; a crawl not yet staged holds back every delta after it.
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { chooseChains, newCrawlId, type CrawlDone } from './store.ts';

const tag = randomBytes(3).toString('hex');
const crawl = (provider: string, t: number, delta: boolean, rowCount = 5): CrawlDone => ({
  provider,
  crawl_id: newCrawlId(provider as 'venue_1', t),
  started_at: t,
  completed_at: t + 1,
  row_count: rowCount,
  delta: delta ? 1 : 0,
  emitted: delta ? 1 : 0,
  vanished: delta ? [`market:${tag}`] : [],
});
const ids = (cs: { chain: CrawlDone[] }[]) => cs.map((c) => c.chain.map((d) => d.started_at));

describe('chooseChains', () => {
  it('builds from the last full crawl and the delta crawls after it, per venue', () => {
    const done = [crawl('venue_1', 1, false), crawl('venue_1', 2, true), crawl('venue_1', 3, false), crawl('venue_1', 4, true), crawl('venue_1', 5, true), crawl('venue_2', 1, false)];
    expect(ids(chooseChains(done.reverse(), () => true))).toEqual([[3, 4, 5], [1]]);
  });

  it('stops at a crawl not yet staged: a later delta needs what it wrote', () => {
    const done = [crawl('venue_1', 1, false), crawl('venue_1', 2, true), crawl('venue_1', 3, true), crawl('venue_1', 4, true)];
    expect(ids(chooseChains(done, (c) => c.started_at !== 3))).toEqual([[1, 2]]);
    // A full crawl not yet staged: the deltas after it wait for it, the older chain is still served.
    const withFull = [crawl('venue_1', 1, false), crawl('venue_1', 2, true), crawl('venue_1', 3, false), crawl('venue_1', 4, true)];
    expect(ids(chooseChains(withFull, (c) => c.started_at !== 3))).toEqual([[1, 2]]);
    // Delta crawls without a full crawl before them are never used.
    expect(chooseChains([crawl('venue_1', 2, true)], () => true)).toEqual([]);
  });

  it('never serves a crawl that listed nothing, but goes on through it', () => {
    const done = [crawl('venue_1', 1, false), crawl('venue_1', 2, true, 0), crawl('venue_1', 3, true)];
    expect(ids(chooseChains(done.slice(0, 2), () => true))).toEqual([[1]]);
    expect(ids(chooseChains(done, () => true))).toEqual([[1, 2, 3]]);
  });
});
