// A batch's state topics are written after its other outputs (StageDef.stateTopics): a crash
// between two topics' writes leaves decisions without their checkpoint, never the reverse.
import { describe, expect, it } from 'vitest';
import type { OutgoingRecord } from '../log/types.ts';
import type { TopicId } from '../topics.ts';
import { sendOutputs, type EncodedOutputs } from './runner.ts';

const rec = (key: string): OutgoingRecord => ({ key: Buffer.from(key), value: Buffer.from('v') });
const produced: EncodedOutputs = [
  { topic: 'matching.state', records: [rec('crawl|venue_1')] },
  { topic: 'canonical.markets', records: [rec('venue_1:a'), rec('venue_1:b')] },
  { topic: 'lifecycle.states', records: [rec('e1')] },
];

describe('sendOutputs', () => {
  it('starts a state topic only once every other topic of the batch is written', async () => {
    const events: string[] = [];
    await sendOutputs(produced, ['matching.state'], async (topic: TopicId) => {
      events.push(`start ${topic}`);
      // The decisions' writes take longer than the checkpoint's would.
      await new Promise((r) => setTimeout(r, topic === 'matching.state' ? 0 : 20));
      events.push(`end ${topic}`);
    });
    const stateStart = events.indexOf('start matching.state');
    expect(stateStart).toBeGreaterThan(events.indexOf('end canonical.markets'));
    expect(stateStart).toBeGreaterThan(events.indexOf('end lifecycle.states'));
    expect(events.filter((e) => e.startsWith('end'))).toHaveLength(3);
  });

  it('never writes the state topic when another write of the batch fails', async () => {
    const written: string[] = [];
    const failing = sendOutputs(produced, ['matching.state'], async (topic: TopicId) => {
      if (topic === 'canonical.markets') throw new Error('broker gone');
      written.push(topic);
    });
    await expect(failing).rejects.toThrow('broker gone');
    expect(written).not.toContain('matching.state');
  });

  it('writes every topic at once when the stage names no state topic', async () => {
    let inFlight = 0;
    let most = 0;
    await sendOutputs(produced, [], async () => {
      most = Math.max(most, ++inFlight);
      await new Promise((r) => setTimeout(r, 5));
      inFlight--;
    });
    expect(most).toBe(3);
  });
});
