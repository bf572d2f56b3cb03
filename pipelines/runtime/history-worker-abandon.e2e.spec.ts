// The history worker abandoned inside a long chdb call, as an operator's stop past STOP_DEADLINE_MS
// leaves it: the process must still end at once (process.exit() would wait for the call, minutes),
// by the signal the operator sent, and chdb opened again afterwards holds everything written before.
import { describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { randomBytes } from 'node:crypto';
import type { AbandonHistorySettings } from './testdata/abandon-history.ts';

const script = path.join(path.dirname(fileURLToPath(import.meta.url)), 'testdata/abandon-history.ts');

/** Runs the script; its stdout lines, and how it ended. */
function run(settings: AbandonHistorySettings): Promise<{ lines: string[]; code: number | null; signal: NodeJS.Signals | null; stderr: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', script], { env: { ...process.env, ABANDON_HISTORY: JSON.stringify(settings) }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  // A process that waits for the busy query would grind a core for hours after the test failed.
  const reaper = setTimeout(() => child.kill('SIGKILL'), 50_000);
  return new Promise((resolve) =>
    child.on('exit', (code, signal) => {
      clearTimeout(reaper);
      resolve({ lines: out.split('\n').filter(Boolean), code, signal, stderr });
    }),
  );
}

describe('the history worker abandoned mid-call', () => {
  it('ends the process without waiting for chdb, and chdb reopens with what was written', async () => {
    const settings = { dir: mkdtempSync(path.join(tmpdir(), 'pm-abandon-')), database: `t_${randomBytes(4).toString('hex')}`, prefix: '' };
    const rows = 1000 + Math.floor(Math.random() * 1000);
    // The busy query would run for hours: the test's timeout fails the suite if the process waits for it.
    const busy = await run({ mode: 'busy', rows, ...settings });
    expect(busy.lines, busy.stderr).toEqual(['busy', 'abandoned: stop deadline', 'closed']);
    // SIGKILL: the reaper's, so the process waited for chdb.
    expect(busy.signal).toBe('SIGTERM');
    const read = await run({ mode: 'read', rows: 0, ...settings });
    expect(read.code, read.stderr).toBe(0);
    expect(read.lines).toEqual([`rows ${rows}`]);
  }, 60_000);

  it('the stop of a sink whose batch waits on a busy worker ends past its deadline, commits nothing, and the next start writes the batch', async () => {
    const settings = { dir: mkdtempSync(path.join(tmpdir(), 'pm-abandon-stage-')), database: '', prefix: `t${randomBytes(4).toString('hex')}.` };
    const rows = 20 + Math.floor(Math.random() * 20);
    const stopped = await run({ mode: 'stage', rows, ...settings });
    expect(stopped.lines, stopped.stderr).toEqual([
      'busy',
      'stop deadline passed: batches in flight abandoned uncommitted (redelivered after the restart) {"deadlineMs":500,"runners":1,"historyWorker":true}',
      'stopped abandoned=true',
    ]);
    expect(stopped.signal).toBe('SIGTERM');
    const resumed = await run({ mode: 'resume', rows: 0, ...settings });
    expect(resumed.code, resumed.stderr).toBe(0);
    // Nothing of the abandoned batch was committed: the restart reads it all again and writes it.
    expect(resumed.lines).toEqual(['committed before []', `rows ${rows}`]);
  }, 90_000);
});
