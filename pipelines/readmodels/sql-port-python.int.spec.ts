// The history SQL port against clickhouse-connect, ClickHouse's Python client (PyPI): its connect
// sequence (version, timezone, system.settings), the README's example queries with server-side
// {name:Type} placeholders over its Native format, a refused write or DDL statement and a refused
// token. The client runs in the venv at .infra/sql-venv (python3 -m venv .infra/sql-venv &&
// .infra/sql-venv/bin/pip install clickhouse-connect); without it the test is skipped, except in CI
// (CI=true), where it fails.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EmbeddedRegistry } from '../registry/embedded.ts';
import { HistoryHost } from '../runtime/history-host.ts';
import { migrate } from './migrate.ts';
import { startSqlPort, type SqlPort } from './sql-port.ts';
import { normalizeRow, paramsOf, readmeExamples, REFUSED, writeFixture, type Fixture } from './sql-port.testkit.ts';

const here = path.dirname(fileURLToPath(import.meta.url));
const PYTHON = path.join(here, '..', '..', '.infra', 'sql-venv', 'bin', 'python');
const SCRIPT = path.join(here, 'sql-port-client.py');
const VENV = existsSync(PYTHON);
const SKIP = !VENV && process.env.CI !== 'true';
if (SKIP) console.warn(`sql-port-python.int.spec: no venv at ${PYTHON} (python3 -m venv .infra/sql-venv && .infra/sql-venv/bin/pip install clickhouse-connect): skipped`);

interface PythonAnswer {
  version: string;
  answers: Record<string, unknown>[][];
  refused: { sql: string; code: string | null }[];
  wrong_token: string | null;
}

/** Runs the Python client with job on stdin; its JSON answer, or its stderr in the error. */
function runPython(job: object): Promise<PythonAnswer> {
  return new Promise((resolve, reject) => {
    const child = spawn(PYTHON, [SCRIPT], { stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0) return reject(new Error(`the Python client exited ${code}:\n${err}`));
      try {
        resolve(JSON.parse(out) as PythonAnswer);
      } catch (e) {
        reject(new Error(`the Python client wrote no JSON (${String(e)}):\n${out}\n${err}`));
      }
    });
    child.stdin.end(JSON.stringify(job));
  });
}

const dir = mkdtempSync(path.join(tmpdir(), 'pm-sql-port-py-'));
const database = `sqlport_${randomBytes(4).toString('hex')}`;
const token = randomBytes(24).toString('base64url');
let host: HistoryHost;
let port: SqlPort;
let fixture: Fixture;

describe('history SQL port with clickhouse-connect (Python)', () => {
  beforeAll(async () => {
    if (SKIP) return;
    host = await HistoryHost.open({ chdbPath: path.join(dir, 'chdb'), database, stages: [], registry: new EmbeddedRegistry(path.join(dir, 'registry')) });
    await migrate(host);
    fixture = await writeFixture(host);
    port = await startSqlPort(host, { port: 0, host: '127.0.0.1', token, timeoutMs: 10_000, maxResultBytes: 16 * 1024 * 1024 });
  });
  afterAll(async () => {
    await port?.close();
    await host?.close();
  });

  it.skipIf(SKIP)('connects, runs every README example, and is refused a write, DDL and a wrong token', async () => {
    expect(VENV, `CI needs the venv at ${PYTHON}: python3 -m venv .infra/sql-venv && .infra/sql-venv/bin/pip install clickhouse-connect`).toBe(true);
    const examples = readmeExamples().map((sql) => ({ sql, params: paramsOf(sql, fixture.params) }));
    const url = new URL(port.address);
    const wrong = randomBytes(24).toString('base64url');
    const answer = await runPython({ host: url.hostname, port: Number(url.port), token, wrong_token: wrong, database, examples, refused: REFUSED });

    expect(answer.version).toMatch(/^\d+\.\d+/);
    expect(answer.answers).toHaveLength(fixture.expected.length);
    for (const [i, raw] of answer.answers.entries()) {
      const rows = raw.map(normalizeRow);
      if (i === 1) {
        for (const r of rows) expect(r.seconds_ago as number).toBeGreaterThanOrEqual(fixture.freshness[r.venue as string]!);
        for (const r of rows) delete r.seconds_ago;
      }
      expect({ example: i + 1, rows }).toEqual({ example: i + 1, rows: fixture.expected[i] });
    }
    expect(answer.refused).toEqual(REFUSED.map((sql) => ({ sql, code: '164' })));
    expect(answer.wrong_token).toBe('516');
    const counts = await host.query<{ raw: number; matched: number }>('SELECT (SELECT count() FROM raw_records FINAL) AS raw, (SELECT count() FROM matched_events FINAL) AS matched');
    expect(counts).toEqual([fixture.counts]);
  });
});
