// A market that leaves a venue's listing has its final record read once (venue_2 serves one per
// market), with the listing feed written whole and in delta mode, where the feed keeps the keys of the
// records its last crawl listed only in its change memory; in delta mode also after a restart that
// read that memory back from the PollerState.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import type { RawRecord } from '../../topics.ts';
import { randomName } from '../../../test/services/index.ts';
import { VenuePoller } from './poller.ts';
import { MemoryPollerState } from './state.ts';

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((r) => s.close(r))));
});

/** A venue_2 upstream listing `listed.ids`, serving each market's own record (closed) too. */
async function upstream(listed: { ids: string[] }): Promise<string> {
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const json = (v: unknown) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(v));
    if (url.pathname === '/venue_2/markets')
      return json(url.searchParams.get('offset') === '0' ? listed.ids.map((id) => ({ id, question: `Question ${id}`, active: true, closed: false })) : []);
    const m = /^\/venue_2\/markets\/(.+)$/.exec(url.pathname);
    if (m) return json({ id: decodeURIComponent(m[1]!), active: true, closed: true, umaResolutionStatus: 'resolved' });
    res.writeHead(404).end('{}');
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

function poller(baseUrl: string, delta: boolean, state: MemoryPollerState, got: RawRecord[]) {
  return new VenuePoller({
    provider: 'venue_2',
    baseUrl,
    sink: async (_p, recs) => void got.push(...recs),
    crawlIntervalMs: 3_600_000,
    listingFullEveryMs: delta ? 6 * 3_600_000 : undefined,
    deadlineMs: 2_000,
    state,
  });
}

/** The native ids of the final records one crawl wrote. */
async function finalsOf(p: VenuePoller, got: RawRecord[]): Promise<string[]> {
  const from = got.length;
  expect(await p.crawlOnce('listing')).toBe(true);
  return got.slice(from).filter((r) => r.record_type === 'final').map((r) => r.native_id);
}

describe.each([
  ['written whole', false],
  ['in delta mode', true],
])('final records of markets that left the listing, listing feed %s', (_name, delta) => {
  it('reads the final record of each market the previous crawl listed and this one does not, once', async () => {
    const [a, b, c] = [randomName('m'), randomName('m'), randomName('m')];
    const listed = { ids: [a, b, c] };
    const got: RawRecord[] = [];
    const p = poller(await upstream(listed), delta, new MemoryPollerState(), got);
    expect(await finalsOf(p, got)).toEqual([]);
    listed.ids = [a];
    expect((await finalsOf(p, got)).sort()).toEqual([b, c].sort());
    expect(await finalsOf(p, got)).toEqual([]);
    // A market listed again and then gone again gets its final record read again.
    listed.ids = [a, b];
    expect(await finalsOf(p, got)).toEqual([]);
    listed.ids = [a];
    expect(await finalsOf(p, got)).toEqual([b]);
    await p.stop();
  });
});

describe('final records in delta mode after a restart', () => {
  it('a poller that read its memory back from the state reads the final record of a market gone while it was away', async () => {
    const [a, b] = [randomName('m'), randomName('m')];
    const listed = { ids: [a, b] };
    const baseUrl = await upstream(listed);
    const state = new MemoryPollerState();
    const got: RawRecord[] = [];
    const first = poller(baseUrl, true, state, got);
    expect(await finalsOf(first, got)).toEqual([]);
    await first.stop();
    listed.ids = [b];
    const again = poller(baseUrl, true, state, got);
    expect(await finalsOf(again, got)).toEqual([a]);
    expect(await finalsOf(again, got)).toEqual([]);
    await again.stop();
  });

  it('without a full crawl on record the restarted poller knows no listing to compare with and reads no final record', async () => {
    const [a, b] = [randomName('m'), randomName('m')];
    const state = new MemoryPollerState();
    // What a poller whose full crawl's state write failed leaves: hashes, no full crawl start.
    await state.save('venue_2', 'listing', { set: [[`market:${a}`, 'h-a'], [`market:${b}`, 'h-b']] }, 0);
    const got: RawRecord[] = [];
    const p = poller(await upstream({ ids: [b] }), true, state, got);
    expect(await finalsOf(p, got)).toEqual([]);
    await p.stop();
  });
});
