// The plan's concurrent streams when the key store that holds their slots was away for longer than a
// slot's lease (README "Plans": a 60 s lease its replica renews every 20 s). A stream whose lease
// lapsed meanwhile (Redis restarting or failing over on the stack) must not go on uncounted: it takes
// a slot again when the plan has room, and is closed when another connection took the room (its client
// reconnects and is answered 429 while the account is full). The embedded log; the key store's renewals
// are made to fail, and the app clock and the renewal timer are moved by hand.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { logImpls, openBackbone, serveStream } from './stream.testkit.ts';
import { STREAM_SLOT_MS } from '../routes/v1/stream.ts';

const [embedded] = await logImpls('stream-slots');

async function harness() {
  const b = await openBackbone(embedded!, { prefix: 'ss', topics: ['matched.events', 'lifecycle.states'] });
  const h = await serveStream(b, { STREAM_HEARTBEAT_MS: 600_000, STREAM_BUFFER_BYTES: 1_048_576, STREAM_FLUSH_MS: 20, STREAM_JOURNAL: 1000, STREAM_RESUME_MS: 3_600_000 });
  const store = h.t.authDeps.store;
  const renew = store.renewStreamSlot.bind(store);
  let away = false;
  store.renewStreamSlot = (...a: Parameters<typeof renew>) => (away ? Promise.reject(new Error('the key store is unreachable')) : renew(...a));
  return {
    h,
    setAway: (v: boolean) => {
      away = v;
    },
  };
}

/** Whether `p` settles within ms. */
const settles = (p: Promise<unknown>, ms: number) => Promise.race([p.then(() => true), new Promise<boolean>((r) => setTimeout(() => r(false), ms))]);

/** A free account's sports stream whose slot lease ran out while the key store was away for two renewals. */
async function lapsedStream() {
  const { h, setAway } = await harness();
  const free = await h.keyOf('free', ['stream.read']);
  // Only the renewal's interval is driven by hand (the log and the hub keep real timers).
  vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
  const one = await h.open('channel=sports', {}, free);
  expect(one.status).toBe(200);
  setAway(true);
  await vi.advanceTimersByTimeAsync((2 * STREAM_SLOT_MS) / 3);
  h.t.clock.advance(STREAM_SLOT_MS + 1000);
  setAway(false);
  return { h, free, one };
}

describe('stream slots after the key store was away longer than a lease', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('regression: a stream whose lease lapsed is closed once another connection took its slot (it streamed on uncounted, over the plan limit)', async () => {
    const { h, free, one } = await lapsedStream();
    // Another connection of the account (any replica) finds the lapsed slot free and takes it.
    const two = await h.open('channel=sports', {}, free);
    expect(two.status).toBe(200);
    // At its next renewal the first finds its slot gone and the plan full: it is closed.
    await vi.advanceTimersByTimeAsync(STREAM_SLOT_MS / 3);
    expect(await settles(one.ended, 10_000)).toBe(true);
    expect(await settles(two.ended, 200)).toBe(false);
    // And the account is held to its one stream.
    const three = await h.open('channel=sports', {}, free);
    expect(three.status).toBe(429);
  });

  it('a stream whose lease lapsed takes a slot again at its next renewal when the plan has room, and stays open', async () => {
    const { h, free, one } = await lapsedStream();
    await vi.advanceTimersByTimeAsync(STREAM_SLOT_MS / 3);
    expect(await settles(one.ended, 1000)).toBe(false);
    // Counted again: a second connection of the free account is refused.
    const two = await h.open('channel=sports', {}, free);
    expect(two.status).toBe(429);
  });
});
