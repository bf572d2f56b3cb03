// Admin reads retry what the broker calls retriable (NOT_COORDINATOR while a new broker elects the
// group coordinator, NOT_LEADER_FOR_PARTITION while it elects leaders), for a time budget, and
// nothing else.
import { describe, expect, it } from 'vitest';
import { KafkaJSProtocolError } from 'kafkajs';
import { retriable } from './kafka.ts';

// As kafkajs builds it from the broker's error code 16 (its typings take only an Error).
const notCoordinator = () =>
  new KafkaJSProtocolError(Object.assign(new Error('This is not the correct coordinator for this group'), { type: 'NOT_COORDINATOR', code: 16, retriable: true }));

// Code 6, as a ListOffsets right after a topic's creation answers on a loaded broker.
const notLeader = () =>
  new KafkaJSProtocolError(Object.assign(new Error('This server is not the leader for that topic-partition'), { type: 'NOT_LEADER_FOR_PARTITION', code: 6, retriable: true }));

describe('retriable', () => {
  it('tries again after a retriable error and returns what the next attempt gives', async () => {
    let calls = 0;
    await expect(retriable(async () => (++calls < 3 ? Promise.reject(notCoordinator()) : 'offsets'), 1)).resolves.toBe('offsets');
    expect(calls).toBe(3);
  });

  it('gives up once its time budget is spent, and throws a non-retriable error at once', async () => {
    let calls = 0;
    const t0 = performance.now();
    await expect(retriable(async () => Promise.reject((calls++, notCoordinator())), 1, undefined, 50)).rejects.toThrow(/not the correct coordinator/);
    expect(calls).toBeGreaterThan(1);
    expect(performance.now() - t0).toBeLessThan(50 + 1_000);
    calls = 0;
    await expect(retriable(async () => Promise.reject((calls++, new Error('unknown topic'))), 1)).rejects.toThrow('unknown topic');
    expect(calls).toBe(1);
  });

  it('outlasts leaders elected in a few seconds (an API replica starting beside a fresh broker)', async () => {
    // The default budget, at the backoff the log uses: five attempts (1.5 s) did not reach the leader.
    const until = performance.now() + 3_000;
    let calls = 0;
    await expect(retriable(async () => (calls++, performance.now() < until ? Promise.reject(notLeader()) : 'offsets'), 100)).resolves.toBe('offsets');
    expect(calls).toBeGreaterThan(5);
  }, 10_000);

  it('gives up at once when told to stop (a consumer stopping does not retry its commit)', async () => {
    let calls = 0;
    await expect(retriable(async () => Promise.reject((calls++, notCoordinator())), 1, () => calls >= 2)).rejects.toThrow(/not the correct coordinator/);
    expect(calls).toBe(2);
  });
});
