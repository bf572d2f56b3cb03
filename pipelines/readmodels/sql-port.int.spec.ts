// The history SQL port against @clickhouse/client, the official ClickHouse client: the README's
// example queries answer what the written rows say, and the port refuses what a read-only port must
// (writes, DDL, settings changes, a wrong or missing token, a statement over its time or size).
// chdb runs on the history worker thread, as in the embedded default.
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ClickHouseLogLevel, createClient, type ClickHouseClient, type ClickHouseSettings } from '@clickhouse/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EmbeddedRegistry } from '../registry/embedded.ts';
import { HistoryHost } from '../runtime/history-host.ts';
import { migrate } from './migrate.ts';
import { MAX_CONCURRENT, startSqlPort, type SqlPort } from './sql-port.ts';
import { normalizeRow, paramsOf, readmeExamples, REFUSED, writeFixture, type Fixture } from './sql-port.testkit.ts';

const dir = mkdtempSync(path.join(tmpdir(), 'pm-sql-port-'));
const database = `sqlport_${randomBytes(4).toString('hex')}`;
const token = randomBytes(24).toString('base64url');
const MAX_RESULT_BYTES = 1024 * 1024;

let host: HistoryHost;
let port: SqlPort;
let fixture: Fixture;
const clients: ClickHouseClient[] = [];
const client = (password = token, extra: Parameters<typeof createClient>[0] = {}) => {
  const c = createClient({ url: port.address, username: 'default', password, database, log: { level: ClickHouseLogLevel.OFF }, ...extra });
  clients.push(c);
  return c;
};
/** The error a promise rejects with (fails the test when it resolves). */
async function refusal(p: Promise<unknown>): Promise<{ code?: string; type?: string; message: string }> {
  try {
    await p;
  } catch (e) {
    return e as { code?: string; type?: string; message: string };
  }
  throw new Error('the statement was not refused');
}

beforeAll(async () => {
  host = await HistoryHost.open({ chdbPath: path.join(dir, 'chdb'), database, stages: [], registry: new EmbeddedRegistry(path.join(dir, 'registry')) });
  await migrate(host);
  fixture = await writeFixture(host);
  port = await startSqlPort(host, { port: 0, host: '127.0.0.1', token, timeoutMs: 10_000, maxResultBytes: MAX_RESULT_BYTES });
});
afterAll(async () => {
  for (const c of clients) await c.close();
  await port?.close();
  await host?.close();
});

describe('history SQL port with @clickhouse/client', () => {
  it('answers ping, and each README example with the rows the fixture implies', async () => {
    const c = client();
    expect((await c.ping()).success).toBe(true);
    const examples = readmeExamples();
    expect(examples).toHaveLength(fixture.expected.length);
    for (const [i, sql] of examples.entries()) {
      const rs = await c.query({ query: sql, query_params: paramsOf(sql, fixture.params), format: 'JSONEachRow' });
      const rows = ((await rs.json()) as Record<string, unknown>[]).map(normalizeRow);
      if (i === 1) {
        // seconds_ago grows with the clock: at least what it was when the rows were written.
        for (const r of rows) expect(r.seconds_ago as number).toBeGreaterThanOrEqual(fixture.freshness[r.venue as string]!);
        for (const r of rows) delete r.seconds_ago;
      }
      expect({ example: i + 1, rows }).toEqual({ example: i + 1, rows: fixture.expected[i] });
    }
  });

  it('takes the statement from GET ?query=, the FORMAT clause or default_format, settings from the URL, and compresses on request', async () => {
    const headers = { 'x-clickhouse-key': token };
    const q = (params: Record<string, string>) => `${port.address}/?${new URLSearchParams({ database, ...params })}`;
    const get = await fetch(q({ query: 'SELECT count() AS n FROM raw_records FINAL FORMAT JSONEachRow' }), { headers });
    expect([get.status, await get.text()]).toEqual([200, `{"n":${fixture.counts.raw}}\n`]);
    const tsv = await fetch(q({ default_format: 'CSVWithNames', max_threads: '1' }), { method: 'POST', headers, body: "SELECT getSetting('max_threads') AS t, 'a,b' AS s" });
    expect([tsv.status, await tsv.text()]).toEqual([200, '"t","s"\n1,"a,b"\n']);
    // Basic auth, the way curl -u sends it; gzip with enable_http_compression=1.
    const basic = { authorization: `Basic ${Buffer.from(`default:${token}`).toString('base64')}`, 'accept-encoding': 'gzip' };
    const gz = await fetch(q({ query: 'SELECT 42 AS answer', enable_http_compression: '1' }), { headers: basic });
    expect(gz.status).toBe(200);
    // fetch decodes gzip by itself (and fails on a body that is not); the header says it was compressed.
    expect([gz.headers.get('content-encoding'), await gz.text()]).toEqual(['gzip', '42\n']);
  });

  it('refuses writes, DDL and settings changes in the engine (code 164), and leaves the tables as they were', async () => {
    const c = client();
    for (const sql of REFUSED) {
      const e = await refusal(c.command({ query: sql }));
      expect({ sql, code: e.code, type: e.type }).toEqual({ sql, code: '164', type: 'READONLY' });
    }
    // readonly itself, and a looser limit, as URL settings.
    const loosened: ClickHouseSettings[] = [{ readonly: '0' }, { readonly: '2' }, { max_execution_time: 60 }, { max_result_bytes: String(2 * MAX_RESULT_BYTES) }];
    for (const settings of loosened) {
      const e = await refusal(c.query({ query: 'SELECT 1', clickhouse_settings: settings }));
      expect({ settings, code: e.code }).toEqual({ settings, code: '164' });
    }
    expect((await refusal(c.query({ query: 'SELECT 1', clickhouse_settings: { no_such_setting_here: 1 } as ClickHouseSettings }))).code).toBe('115');
    const counts = await host.query<{ raw: number; matched: number }>('SELECT (SELECT count() FROM raw_records FINAL) AS raw, (SELECT count() FROM matched_events FINAL) AS matched');
    expect(counts).toEqual([fixture.counts]);
  });

  it('refuses a wrong or missing token (403, code 516), and never quotes it', async () => {
    const wrong = randomBytes(24).toString('base64url');
    const e = await refusal(client(wrong).query({ query: 'SELECT 1' }));
    expect([e.code, e.type]).toEqual(['516', 'AUTHENTICATION_FAILED']);
    expect(e.message.includes(wrong)).toBe(false);
    const bare = await fetch(`${port.address}/?query=SELECT%201`);
    expect([bare.status, bare.headers.get('x-clickhouse-exception-code')]).toEqual([403, '516']);
    const bearer = await fetch(`${port.address}/?query=SELECT%201`, { headers: { authorization: `Bearer ${token}` } });
    expect([bearer.status, await bearer.text()]).toEqual([200, '1\n']);
  });

  it('answers ClickHouse-style errors: syntax 400, unknown table 404, over the time or size limit', async () => {
    const c = client();
    const syntax = await fetch(`${port.address}/?database=${database}`, { method: 'POST', headers: { 'x-clickhouse-key': token }, body: 'SELEC 1' });
    expect([syntax.status, syntax.headers.get('x-clickhouse-exception-code')]).toEqual([400, '62']);
    expect(await syntax.text()).toMatch(/^Code: 62\. DB::Exception: Syntax error.*\(SYNTAX_ERROR\) \(version \d+\.[\d.]+\)\n$/s);
    expect((await refusal(c.query({ query: 'SELECT * FROM no_such_table' }))).code).toBe('60');
    // A statement may lower its own time limit; over it, the engine stops it.
    const slow = await refusal(c.query({ query: 'SELECT count() FROM numbers_mt(1000000000000) WHERE sipHash64(number) = 0', clickhouse_settings: { max_execution_time: 0.2 } }));
    expect([slow.code, slow.type]).toEqual(['159', 'TIMEOUT_EXCEEDED']);
    // Over max_result_bytes in the engine, and over it once formatted (small columns, long JSON).
    expect((await refusal(c.query({ query: 'SELECT repeat(\'x\', 100) FROM numbers(20000)', format: 'TabSeparated' }))).code).toBe('396');
    const formatted = await refusal(c.query({ query: 'SELECT toUInt8(1) AS one FROM numbers(200000)', format: 'JSONEachRow' }));
    expect([formatted.code, formatted.message]).toEqual(['396', expect.stringContaining('(formatted)')]);
  });

  it(`runs at most ${MAX_CONCURRENT} statements at once; one more answers 503, code 202`, async () => {
    // Each runs until the engine stops it at 1 s; all are sent at once, so the last finds the others running.
    const slow = `${port.address}/?${new URLSearchParams({ database, max_execution_time: '1', query: 'SELECT count() FROM numbers_mt(1000000000000) WHERE sipHash64(number) = 0' })}`;
    const answers = await Promise.all(
      Array.from({ length: MAX_CONCURRENT + 1 }, () => fetch(slow, { headers: { 'x-clickhouse-key': token } }).then(async (r) => `${r.status} ${r.headers.get('x-clickhouse-exception-code')}`)),
    );
    expect(answers.sort()).toEqual([...Array<string>(MAX_CONCURRENT).fill('408 159'), '503 202'].sort());
  });
});
