// The history SQL port's pure parts: what a request asks (statement, database, format, settings,
// placeholder values), where the token comes from and how it is compared, the engine connection's
// command line (the caller's settings first, the pinned ones last, only tightened), and the HTTP
// status of each ClickHouse error code.
import { describe, expect, it } from 'vitest';
import { connectionArgs, engineError, paramValue } from './chdb-readonly.ts';
import { credentialOf, errorOf, parseRequest, SqlError, tokenMatches } from './sql-port.ts';

const url = (params: Record<string, string>) => new URL(`http://h/?${new URLSearchParams(params)}`);
const none = { text: '' };
const defaults = { database: 'pm' };

describe('parseRequest', () => {
  it('joins the query parameter and the body with a newline, as ClickHouse does, and defaults database and format', () => {
    const r = parseRequest(url({ query: 'SELECT' }), {}, { text: '1 AS a' }, defaults);
    expect(r.query).toEqual({ sql: 'SELECT\n1 AS a', database: 'pm', format: 'TabSeparated', settings: {}, params: {} });
    expect(parseRequest(url({}), {}, { text: 'SELECT 2' }, defaults).query.sql).toBe('SELECT 2');
  });

  it('splits the URL into settings, placeholder values and transport parameters it ignores', () => {
    const r = parseRequest(
      url({ query: 'SELECT {v:String}', param_v: "a\\'b", max_threads: '2', session_id: 's1', wait_end_of_query: '1', client_protocol_version: '54405', query_id: 'q-7', database: 'other', default_format: 'JSONEachRow', enable_http_compression: '1' }),
      {},
      none,
      defaults,
    );
    expect(r.query).toEqual({ sql: 'SELECT {v:String}', database: 'other', format: 'JSONEachRow', settings: { max_threads: '2' }, params: { v: "a\\'b" } });
    expect([r.queryId, r.compressAnswer]).toEqual(['q-7', true]);
  });

  it('takes database and format from the X-ClickHouse headers, and form fields over the URL', () => {
    const r = parseRequest(url({}), { 'x-clickhouse-database': 'h', 'x-clickhouse-format': 'CSV' }, { text: '', fields: new Map([['query', 'SELECT {n:UInt8}'], ['param_n', '5']]) }, defaults);
    expect(r.query).toMatchObject({ sql: 'SELECT {n:UInt8}', database: 'h', format: 'CSV', params: { n: '5' } });
  });

  it('refuses an empty statement, a bad format name, a bad setting name, the token in the URL and ClickHouse block compression', () => {
    const code = (f: () => unknown) => {
      try {
        f();
      } catch (e) {
        return (e as SqlError).code;
      }
      return 'accepted';
    };
    expect(code(() => parseRequest(url({}), {}, { text: '  ' }, defaults))).toBe(62);
    expect(code(() => parseRequest(url({ query: 'SELECT 1', default_format: 'JSON; DROP' }), {}, none, defaults))).toBe(73);
    expect(code(() => parseRequest(url({ query: 'SELECT 1', 'max-threads': '1' }), {}, none, defaults))).toBe(115);
    expect(code(() => parseRequest(url({ query: 'SELECT 1', password: 'x' }), {}, none, defaults))).toBe(516);
    expect(code(() => parseRequest(url({ query: 'SELECT 1', compress: '1' }), {}, none, defaults))).toBe(48);
  });
});

describe('the token', () => {
  const token = 'a-token-of-some-length';
  it('is read from basic auth (any user), Bearer, or X-ClickHouse-Key', () => {
    expect(credentialOf({ authorization: `Basic ${Buffer.from(`default:${token}`).toString('base64')}` })).toBe(token);
    expect(credentialOf({ authorization: `Basic ${Buffer.from(`anyone:with:colon`).toString('base64')}` })).toBe('with:colon');
    expect(credentialOf({ authorization: `Bearer ${token}` })).toBe(token);
    expect(credentialOf({ 'x-clickhouse-key': token })).toBe(token);
    expect(credentialOf({})).toBeUndefined();
  });
  it('matches only itself, whatever the length of what is given', () => {
    expect(tokenMatches(token, token)).toBe(true);
    for (const other of [undefined, '', token.slice(0, -1), `${token}x`, token.toUpperCase()]) expect(tokenMatches(other, token)).toBe(false);
  });
});

describe('the read-only connection', () => {
  const known = new Set(['max_threads', 'readonly', 'max_execution_time', 'max_result_bytes', 'result_overflow_mode', 'timeout_overflow_mode']);
  const limits = { timeoutMs: 30_000, maxResultBytes: 1_000_000 };
  const pinned = ['--max_execution_time=30', '--max_result_bytes=1000000', '--readonly=1', '--result_overflow_mode=throw', '--timeout_overflow_mode=throw'];

  it('puts the caller’s settings first and the pinned ones last, where they win', () => {
    expect(connectionArgs({ settings: { max_threads: '2' }, ...limits }, known)).toEqual(['--max_threads=2', ...pinned]);
    expect(connectionArgs({ settings: {}, ...limits }, known)).toEqual(pinned);
  });

  it('lets a caller lower the time and size limits, never raise them, change readonly or name an unknown setting', () => {
    const args = connectionArgs({ settings: { max_execution_time: '0.5', max_result_bytes: '1000' }, ...limits }, known);
    expect(args).toContain('--max_execution_time=0.5');
    expect(args).toContain('--max_result_bytes=1000');
    expect(args).not.toContain('--max_execution_time=30');
    const refused = (settings: Record<string, string>) => {
      try {
        connectionArgs({ settings, ...limits }, known);
      } catch (e) {
        return errorOf(e).code;
      }
      return 'accepted';
    };
    expect(refused({ max_execution_time: '31' })).toBe(164);
    expect(refused({ max_execution_time: '0' })).toBe(164);
    expect(refused({ max_result_bytes: '1000001' })).toBe(164);
    expect(refused({ readonly: '0' })).toBe(164);
    expect(refused({ result_overflow_mode: 'break' })).toBe(164);
    expect(refused({ readonly: '1' })).toBe('accepted');
    expect(refused({ config_file: '/etc/passwd' })).toBe(115);
  });

  it('reads placeholder values as ClickHouse HTTP sends them (escaped text, \\N for NULL)', () => {
    expect(paramValue("it\\'s\\ta\\\\b")).toBe("it's\ta\\b");
    expect(paramValue('\\N')).toBeNull();
    expect(paramValue('plain')).toBe('plain');
  });
});

describe('errors', () => {
  it('keep the engine’s code and text, with ClickHouse’s HTTP status for the code', () => {
    const cases: [Error, number, number][] = [
      [engineError(62, 'SYNTAX_ERROR', 'Syntax error'), 62, 400],
      [engineError(60, 'UNKNOWN_TABLE', 'Unknown table'), 60, 404],
      [engineError(516, 'AUTHENTICATION_FAILED', 'no'), 516, 403],
      [engineError(159, 'TIMEOUT_EXCEEDED', 'slow'), 159, 408],
      [engineError(164, 'READONLY', 'Cannot execute query in readonly mode'), 164, 500],
      [new SqlError(36, 'BAD_ARGUMENTS', 'too large', 413), 36, 413],
      [new Error('the history worker thread exited'), 1001, 500],
    ];
    for (const [e, code, status] of cases) expect(errorOf(e)).toMatchObject({ code, status, text: expect.stringMatching(new RegExp(`^Code: ${code}\\. DB::Exception: .*\\([A-Z_]+\\)$`)) });
  });
});
