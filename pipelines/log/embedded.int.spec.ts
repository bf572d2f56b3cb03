// The log contract against the embedded log, on a fresh temporary directory per test; "restart" reopens
// the same directory.
import { spawn } from 'node:child_process';
import { appendFileSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { Partitioners } from 'kafkajs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { open } from 'node:fs/promises';
import { randomName } from '../../test/services/index.ts';
import { EmbeddedLog, type EmbeddedLogOptions } from './embedded.ts';
import { logContract } from './log.contract.ts';
import { partitionForKey } from './partitioner.ts';
import type { LogRecord } from './types.ts';

logContract('embedded', () => {
  const dir = mkdtempSync(join(tmpdir(), 'log-contract-'));
  return {
    open: (opts) => EmbeddedLog.open({ dir, retryBackoffMs: 50, ...opts }),
    knowsWaiting: true,
    compact: (log, topic) => (log as EmbeddedLog).compact(topic),
  };
});

describe('embedded log specifics', () => {
  const dirs: string[] = [];
  const logs: EmbeddedLog[] = [];
  const fresh = () => {
    const d = mkdtempSync(join(tmpdir(), 'log-embedded-'));
    dirs.push(d);
    return d;
  };
  const openLog = async (opts: Omit<EmbeddedLogOptions, 'dir'> & { dir?: string } = {}) => {
    const log = await EmbeddedLog.open({ dir: opts.dir ?? fresh(), compactIntervalMs: 0, ...opts });
    logs.push(log);
    return log;
  };
  afterEach(async () => {
    for (const l of logs.splice(0)) await l.close();
  });
  const b = (s: string) => Buffer.from(s);
  const readAll = (log: EmbeddedLog, topic: string, max?: number) => readAllPartition(log, topic, 0, max);
  const readAllPartition = async (log: EmbeddedLog, topic: string, partition: number, max?: number) => {
    const out: LogRecord[] = [];
    for (let from = 0; ; ) {
      const recs = await log.read(topic, partition, from, max);
      if (!recs.length) return out;
      out.push(...recs);
      from = Number(recs[recs.length - 1]!.offset) + 1;
    }
  };

  it('partitions exactly as kafkajs DefaultPartitioner (the Java client murmur2)', () => {
    const partitioner = Partitioners.DefaultPartitioner();
    for (let i = 0; i < 2000; i++) {
      const key = randomBytes(i % 37);
      for (const n of [1, 3, 7, 12]) {
        const partitionMetadata = Array.from({ length: n }, (_, p) => ({ partitionId: p, leader: 0 }));
        const expected = partitioner({ topic: 't', partitionMetadata, message: { key, value: null } } as never);
        expect(partitionForKey(key, n)).toBe(expected);
      }
    }
  });

  it('cleaning drops superseded values and expired tombstones, keeps offsets, survives a restart', async () => {
    const dir = fresh();
    let log = await openLog({ dir, tombstoneRetentionMs: 0 });
    const topic = randomName('c');
    await log.createTopics([{ name: topic, partitions: 1, cleanupPolicy: 'compact' }]);
    const p = await log.producer();
    await p.send(topic, [
      { key: b('a'), value: b('1') },
      { key: b('b'), value: b('1') },
      { key: b('a'), value: b('2') },
      { key: b('b'), value: null },
      { key: b('c'), value: b('1') },
    ]);
    await log.compact(topic);
    await p.send(topic, [{ key: b('c'), value: b('2') }]);
    const read = async (l: EmbeddedLog) => (await readAll(l, topic)).map((r) => `${r.offset}:${r.key}=${r.value}`);
    expect(await read(log)).toEqual(['2:a=2', '4:c=1', '5:c=2']);
    expect(await log.topicOffsets(topic)).toEqual([{ partition: 0, low: '2', high: '6' }]);
    await log.close();
    log = await openLog({ dir });
    expect(await read(log)).toEqual(['2:a=2', '4:c=1', '5:c=2']);
    await log.compact(topic);
    expect(await read(log)).toEqual(['2:a=2', '5:c=2']);
    // Offsets stay monotonic even when a later cleaning empties the partition's history.
    await (await log.producer()).send(topic, [{ key: b('a'), value: null }]);
    expect((await log.topicOffsets(topic))[0]!.high).toBe('7');
  });

  it("cleaning keeps a partition's last record, an expired tombstone too, so a read to the high watermark ends", async () => {
    const log = await openLog({ dir: fresh(), tombstoneRetentionMs: 0 });
    const topic = randomName('c');
    await log.createTopics([{ name: topic, partitions: 1, cleanupPolicy: 'compact' }]);
    const p = await log.producer();
    await p.send(topic, [
      { key: b('a'), value: b('1') },
      { key: b('b'), value: null },
      { key: b('a'), value: null },
    ]);
    await log.compact(topic);
    const offsets = await log.topicOffsets(topic);
    const read = (await readAll(log, topic)).map((r) => `${r.offset}:${r.key}=${r.value}`);
    // The superseded value and the older tombstone go; the last record, a tombstone, stays.
    expect(read).toEqual(['2:a=null']);
    expect(offsets[0]!.high).toBe('3');
    expect(Number(read.at(-1)!.split(':')[0]) + 1).toBe(Number(offsets[0]!.high));
  });

  it('refuses records without a key on a compacted topic', async () => {
    const log = await openLog();
    const topic = randomName('c');
    await log.createTopics([{ name: topic, partitions: 1, cleanupPolicy: 'compact' }]);
    await expect((await log.producer()).send(topic, [{ key: null, value: b('x') }])).rejects.toThrow(/without a key/);
  });

  it('truncates a torn write at the tail on restart and keeps everything acknowledged', async () => {
    const dir = fresh();
    let log = await openLog({ dir });
    const topic = randomName('t');
    await log.createTopics([{ name: topic, partitions: 1, cleanupPolicy: 'delete' }]);
    await (await log.producer()).send(topic, [{ key: b('k'), value: b('acknowledged') }]);
    await log.close();
    const seg = join(dir, 'topics', topic, '0', '00000000000000000000.log');
    appendFileSync(seg, Buffer.from([40, 0, 0, 0, 1, 2, 3])); // half a record, as a crash mid-write leaves
    log = await openLog({ dir });
    expect((await log.read(topic, 0, 0)).map((r) => String(r.value))).toEqual(['acknowledged']);
    await (await log.producer()).send(topic, [{ key: b('k'), value: b('next') }]);
    expect((await log.read(topic, 0, 0)).map((r) => `${r.offset}:${r.value}`)).toEqual(['0:acknowledged', '1:next']);
  });

  it('rolls segments, reads across them, and drops expired segments of delete topics', async () => {
    const log = await openLog({ segmentBytes: 200 });
    const topic = randomName('t');
    await log.createTopics([{ name: topic, partitions: 1, cleanupPolicy: 'delete', retentionMs: 60_000 }]);
    const p = await log.producer();
    const old = Date.now() - 3_600_000;
    for (let i = 0; i < 10; i++) await p.send(topic, [{ key: b('k'), value: Buffer.alloc(60, i), timestamp: old }]);
    for (let i = 0; i < 3; i++) await p.send(topic, [{ key: b('k'), value: b(`new${i}`) }]);
    const all = (await readAll(log, topic, 2)).map((r) => r.offset);
    expect(all).toEqual(Array.from({ length: 13 }, (_, i) => String(i)));
    await (log as unknown as { maintain(): Promise<void> }).maintain();
    // 97-byte records, 3 per segment: [0-2] [3-5] [6-8] expire whole; [9-11] holds new records, so stays.
    expect((await log.topicOffsets(topic))[0]!.low).toBe('9');
    expect((await readAll(log, topic)).map((r) => String(r.value))).toContain('new0');
  });

  it('drops the oldest closed segments of a delete topic beyond its retentionBytes, set again on an existing topic', async () => {
    const log = await openLog({ segmentBytes: 200 });
    const topic = randomName('t');
    await log.createTopics([{ name: topic, partitions: 1, cleanupPolicy: 'delete' }]);
    const p = await log.producer();
    for (let i = 0; i < 13; i++) await p.send(topic, [{ key: b('k'), value: Buffer.alloc(60, i) }]);
    await (log as unknown as { maintain(): Promise<void> }).maintain();
    expect((await log.topicOffsets(topic))[0]!.low).toBe('0');
    // The configured budget reaches a topic created before it.
    await log.createTopics([{ name: topic, partitions: 1, cleanupPolicy: 'delete', retentionBytes: 250 }]);
    await (log as unknown as { maintain(): Promise<void> }).maintain();
    // 97-byte records, 3 per segment: [0-2] [3-5] [6-8] go; [9-11] (291 B) stays, as without it the
    // partition (the active [12], 97 B) would be under 250 B.
    expect((await log.topicOffsets(topic))[0]!.low).toBe('9');
    expect((await readAll(log, topic)).map((r) => r.offset)).toEqual(['9', '10', '11', '12']);
  });

  it('gives a group one active consumer and refuses to reset a running group', async () => {
    const log = await openLog();
    const topic = randomName('t');
    const group = randomName('g');
    await log.createTopics([{ name: topic, partitions: 1, cleanupPolicy: 'delete' }]);
    const c1 = log.consumer({ groupId: group, topics: [topic], fromBeginning: true });
    await c1.run(async () => {});
    await expect(log.consumer({ groupId: group, topics: [topic], fromBeginning: true }).run(async () => {})).rejects.toThrow(
      /already has an active consumer/,
    );
    await expect(log.resetGroup(group, topic, 'earliest')).rejects.toThrow(/stop it/);
    await c1.stop();
    await log.resetGroup(group, topic, 'earliest');
  });

  it('a new group with fromBeginning false starts at the end', async () => {
    const log = await openLog();
    const topic = randomName('t');
    await log.createTopics([{ name: topic, partitions: 1, cleanupPolicy: 'delete' }]);
    const p = await log.producer();
    await p.send(topic, [{ key: b('k'), value: b('before') }]);
    const got: string[] = [];
    const c = log.consumer({ groupId: randomName('g'), topics: [topic], fromBeginning: false });
    await c.run(async (batch) => void got.push(...batch.records.map((r) => String(r.value))));
    await p.send(topic, [{ key: b('k'), value: b('after') }]);
    for (let i = 0; i < 100 && got.length < 1; i++) await new Promise((r) => setTimeout(r, 10));
    await c.stop();
    expect(got).toEqual(['after']);
  });

  it('loses nothing acknowledged when the process is killed mid-stream (SIGKILL), and resumes the group', async () => {
    const dir = fresh();
    const child = spawn(process.execPath, ['--import', 'tsx', join(import.meta.dirname, 'testdata', 'writer.ts'), dir], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let acked = 0;
    let committedSeen = 0;
    await new Promise<void>((resolve, reject) => {
      let buf = '';
      child.stdout.on('data', (d: Buffer) => {
        buf += d.toString();
        for (let i = buf.indexOf('\n'); i >= 0; i = buf.indexOf('\n')) {
          const [what, n] = buf.slice(0, i).split(' ');
          buf = buf.slice(i + 1);
          if (what === 'acked') acked = Number(n);
          if (what === 'committed') committedSeen = Number(n);
          if (acked >= 20_000 && committedSeen > 0) {
            child.kill('SIGKILL');
            resolve();
          }
        }
      });
      child.on('exit', (code) => (acked >= 20_000 ? resolve() : reject(new Error(`writer exited early (${code})`))));
    });
    if (child.exitCode === null && child.signalCode === null) await new Promise((r) => child.once('exit', r));
    // The killed process left its lock file behind; its pid is gone, so the directory opens.
    const log = await openLog({ dir });
    const values = new Set<number>();
    for (const p of [0, 1]) {
      let expected = 0;
      for (const r of await readAllPartition(log, 'crash', p)) {
        expect(Number(r.offset)).toBe(expected++); // dense, in order, no hole from a torn tail
        values.add(Number(String(r.value)));
      }
    }
    // Every acknowledged record is there (records sent but not yet acknowledged may be too).
    for (let v = 0; v < acked; v++) expect(values.has(v)).toBe(true);
    // The group resumes from its committed offsets: what it reads next is exactly what it had not committed.
    const committed = await log.groupOffsets('crash-group', 'crash');
    const total = [...committed.values()].reduce((s, o) => s + Number(o), 0);
    expect(total).toBeGreaterThan(0);
    const rest: string[] = [];
    const c = log.consumer({ groupId: 'crash-group', topics: ['crash'], fromBeginning: true });
    await c.run(async (b) => void rest.push(...b.records.map((r) => `${r.partition}:${r.offset}`)));
    for (let i = 0; i < 200 && total + rest.length < values.size; i++) await new Promise((r) => setTimeout(r, 10));
    await c.stop();
    expect(total + rest.length).toBe(values.size);
    for (const id of rest) {
      const [p, o] = id.split(':').map(Number) as [number, number];
      expect(o).toBeGreaterThanOrEqual(Number(committed.get(p) ?? 0));
    }
  }, 60_000);

  it("keeps a group's commits in a journal: each commit one line, a torn last line falls back to the commit before", async () => {
    const dir = fresh();
    const topic = randomName('journal');
    const group = randomName('g');
    let log = await openLog({ dir });
    await log.createTopics([{ name: topic, partitions: 2, cleanupPolicy: 'delete' }]);
    await log.setGroupOffsets(group, topic, new Map([[0, '3']]));
    await log.setGroupOffsets(group, topic, new Map([[1, '5']]));
    await log.setGroupOffsets(group, topic, new Map([[0, '7']]));
    await logs.pop()!.close();
    const file = join(dir, 'groups', `${encodeURIComponent(group)}.jsonl`);
    // Every commit is a line of its own (the first one in a process starts the file).
    expect(readFileSync(file, 'utf8').trim().split('\n')).toHaveLength(3);
    // A crash mid-write leaves part of a line: the whole line before it counts.
    appendFileSync(file, '{"' + topic + '":{"0":9');
    log = await openLog({ dir });
    expect(Object.fromEntries(await log.groupOffsets(group, topic))).toEqual({ 0: '7', 1: '5' });
    // The next commit starts a clean journal: the torn bytes are gone, not joined to the new line.
    await log.setGroupOffsets(group, topic, new Map([[1, '6']]));
    expect(readFileSync(file, 'utf8')).toBe(`{"${topic}":{"0":7,"1":6}}\n`);
    await log.deleteGroup(group);
    expect(readdirSync(join(dir, 'groups')).filter((f) => f.startsWith(encodeURIComponent(group)))).toEqual([]);
  });

  it("reads a group's offsets from its .json file where it has no journal (a directory from before the journal)", async () => {
    const dir = fresh();
    const topic = randomName('legacy');
    const group = randomName('g');
    const log = await openLog({ dir });
    await log.createTopics([{ name: topic, partitions: 1, cleanupPolicy: 'delete' }]);
    await logs.pop()!.close();
    writeFileSync(join(dir, 'groups', `${encodeURIComponent(group)}.json`), JSON.stringify({ [topic]: { 0: 4 } }));
    const again = await openLog({ dir });
    expect(Object.fromEntries(await again.groupOffsets(group, topic))).toEqual({ 0: '4' });
  });

  it('reads what was just written from memory, across writes, segments and the budget, the same records as from the files', async () => {
    const dir = fresh();
    const topic = randomName('recent');
    // Small segments (rolls) and a budget of a few writes (the oldest dropped as it goes).
    let log = await openLog({ dir, segmentBytes: 4096, recentBytes: 3000 });
    await log.createTopics([{ name: topic, partitions: 1, cleanupPolicy: 'delete' }]);
    const producer = await log.producer();
    const sent: string[] = [];
    for (let w = 0; w < 40; w++) {
      const batch = Array.from({ length: 1 + (w % 5) }, (_, i) => `w${w}-r${i}-${randomBytes(20 + ((w * 7 + i) % 60)).toString('hex')}`);
      sent.push(...batch);
      await producer.send(topic, batch.map((v) => ({ key: b(v.slice(0, 6)), value: b(v) })));
    }
    // FileHandle's read, wherever the log's segment files are read.
    const probe = await open(join(dir, 'lock'));
    await probe.close();
    const fileReads = vi.spyOn(Object.getPrototypeOf(probe) as { read: () => unknown }, 'read');
    try {
      // The latest records: from memory, no file read.
      const tail = await log.read(topic, 0, sent.length - 6, 100);
      expect(tail.map((r) => r.value!.toString())).toEqual(sent.slice(-6));
      expect(fileReads).not.toHaveBeenCalled();
      // Older ones (dropped from memory) from the files; every read the same records either way.
      for (const max of [1, 3, 7, 1000]) expect((await readAll(log, topic, max)).map((r) => r.value!.toString())).toEqual(sent);
      expect(fileReads).toHaveBeenCalled();
    } finally {
      fileReads.mockRestore();
    }
    await logs.pop()!.close();
    log = await openLog({ dir, recentBytes: 0 });
    expect((await readAll(log, topic)).map((r) => r.value!.toString())).toEqual(sent);
  });

  it('holds no more memory for its recent writes than their budget, whatever the writes (small ones are slices of a shared pool)', async () => {
    // Records under 4 KB are cut from Node's shared 8 KB pool; a kept slice would pin the whole slab.
    // Writes of one to a few records, small and large, on three partitions; after every write the
    // buffers the kept writes hold alive (dropped ones included) stay within the budget.
    const budget = 16 * 1024;
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.record({ sizes: fc.array(fc.integer({ min: 1, max: 6000 }), { minLength: 1, maxLength: 4 }), key: fc.integer({ min: 0, max: 2 }) }), { minLength: 150, maxLength: 300 }),
        async (writes) => {
          const log = await openLog({ recentBytes: budget });
          const topic = randomName('held');
          await log.createTopics([{ name: topic, partitions: 3, cleanupPolicy: 'delete' }]);
          const producer = await log.producer();
          let worst = 0;
          for (const w of writes) {
            await producer.send(topic, w.sizes.map((n) => ({ key: b(`k${w.key}`), value: randomBytes(n), partition: w.key })));
            worst = Math.max(worst, log.recentHeldBytes());
          }
          expect(worst).toBeLessThanOrEqual(budget);
          // Still served from memory: the last write reads back as sent.
          const last = writes[writes.length - 1]!;
          const tail = await log.read(topic, last.key, log.highWatermark(topic, last.key) - last.sizes.length, 10);
          expect(tail.map((r) => r.value!.length)).toEqual(last.sizes);
        },
      ),
      { numRuns: 4 },
    );
  });

  it('refuses a second open of the same directory', async () => {
    const dir = fresh();
    await openLog({ dir });
    await expect(EmbeddedLog.open({ dir })).rejects.toThrow(/already open/);
  });
});
