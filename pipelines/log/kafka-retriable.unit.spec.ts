// Admin reads retry what the broker calls retriable (NOT_COORDINATOR while a new broker elects the
// group coordinator), and nothing else.
import { describe, expect, it } from 'vitest';
import { KafkaJSProtocolError } from 'kafkajs';
import { retriable } from './kafka.ts';

// As kafkajs builds it from the broker's error code 16 (its typings take only an Error).
const notCoordinator = () =>
  new KafkaJSProtocolError(Object.assign(new Error('This is not the correct coordinator for this group'), { type: 'NOT_COORDINATOR', code: 16, retriable: true }));

describe('retriable', () => {
  it('tries again after a retriable error and returns what the next attempt gives', async () => {
    let calls = 0;
    await expect(retriable(async () => (++calls < 3 ? Promise.reject(notCoordinator()) : 'offsets'), 1)).resolves.toBe('offsets');
    expect(calls).toBe(3);
  });

  it('gives up after 5 attempts, and throws a non-retriable error at once', async () => {
    let calls = 0;
    await expect(retriable(async () => Promise.reject((calls++, notCoordinator())), 1)).rejects.toThrow(/not the correct coordinator/);
    expect(calls).toBe(5);
    calls = 0;
    await expect(retriable(async () => Promise.reject((calls++, new Error('unknown topic'))), 1)).rejects.toThrow('unknown topic');
    expect(calls).toBe(1);
  });

  it('gives up at once when told to stop (a consumer stopping does not retry its commit)', async () => {
    let calls = 0;
    await expect(retriable(async () => Promise.reject((calls++, notCoordinator())), 1, () => calls >= 2)).rejects.toThrow(/not the correct coordinator/);
    expect(calls).toBe(2);
  });
});
