// The log contract on the port seam: tails, topicOffsets and offsetsForTime answered through a
// MessageChannel by serveLogTail() from the embedded log (as the pipeline thread serves the API's
// push stream, PIPELINE_THREAD); what the port does not carry (producers, groups) goes to the same
// log directly, so every test of the contract runs and the tail tests read through the port.
import { MessageChannel } from 'node:worker_threads';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { EmbeddedLog } from './embedded.ts';
import { logContract } from './log.contract.ts';
import { PortLog, serveLogTail } from './log-port.ts';
import { EmbeddedRegistry } from '../registry/embedded.ts';

function overPort(log: EmbeddedLog, registry = new EmbeddedRegistry(mkdtempSync(join(tmpdir(), 'log-port-reg-')))): PortLog {
  const ch = new MessageChannel();
  serveLogTail(log, registry, ch.port1);
  return new PortLog(ch.port2, log.kind, log);
}

logContract('embedded, read through a port', () => {
  const dir = mkdtempSync(join(tmpdir(), 'log-port-contract-'));
  return {
    open: async (opts) => overPort(await EmbeddedLog.open({ dir, retryBackoffMs: 50, ...opts })),
    knowsWaiting: true,
    compact: (log, topic) => ((log as unknown as { rest: EmbeddedLog }).rest).compact(topic),
  };
});

describe('PortLog without the log beside it', () => {
  it("refuses what the port does not carry, naming it, and answers the registry's lookups", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'log-port-'));
    const log = await EmbeddedLog.open({ dir });
    const registry = new EmbeddedRegistry(join(dir, 'registry'));
    const ch = new MessageChannel();
    serveLogTail(log, registry, ch.port1);
    const port = new PortLog(ch.port2, log.kind);
    try {
      expect(() => port.consumer({ groupId: 'g', topics: ['t'], fromBeginning: true })).toThrow(/consumer is not carried over the pipeline thread's port/);
      const schema = { type: 'record', name: 'R', fields: [{ name: 'a', type: 'string' }] };
      const id = await registry.register('s-value', schema);
      expect(await port.registry().register('s-value', schema)).toBe(id);
      expect(await port.registry().getSchema(id)).toEqual(await registry.getSchema(id));
    } finally {
      await port.close();
      await log.close();
    }
  });
});
