// The CI rule of test/services: in CI a missing service that CI must provide fails the suite (throws),
// never skips; outside CI it skips with a reason.
import { describe, expect, it } from 'vitest';
import { available, randomName } from './index.ts';

const noDocker = { TESTCONTAINERS_DISABLED: 'true' };

describe('test services', () => {
  it('uses the address from the environment', async () => {
    expect(await available('kafka', { KAFKA_BROKERS: '127.0.0.1:9092' })).toEqual({ ok: true, reason: 'KAFKA_BROKERS=127.0.0.1:9092' });
  });

  it('throws in CI when a service CI must provide is missing', async () => {
    process.env.TESTCONTAINERS_DISABLED = 'true';
    await expect(available('redis', { ...noDocker, CI: 'true' })).rejects.toThrow(/CI=true and a needed service is missing: redis/);
    await expect(available('kafka', { ...noDocker, CI: 'true', CI_SERVICES: 'kafka,redis' })).rejects.toThrow(/kafka/);
  });

  it('skips with a reason in CI for a service CI does not provide, and outside CI', async () => {
    process.env.TESTCONTAINERS_DISABLED = 'true';
    const ci = await available('clickhouse', { ...noDocker, CI: 'true', CI_SERVICES: 'kafka,redis' });
    expect(ci.ok).toBe(false);
    expect(ci.reason).toMatch(/CI provides no clickhouse/);
    const dev = await available('registry', noDocker);
    expect(dev).toMatchObject({ ok: false });
    expect(dev.reason).toMatch(/SCHEMA_REGISTRY_URL is not set/);
  });

  it('makes names unique per call', () => {
    expect(randomName('t')).not.toBe(randomName('t'));
    expect(randomName('topic')).toMatch(/^topic-[a-z0-9]+-[0-9a-f]{8}$/);
  });
});
