// The history SQL port: a read-only ClickHouse HTTP interface to the embedded default's chdb, so data
// teams can query the history with ClickHouse's own clients (@clickhouse/client, clickhouse-connect,
// curl) while the service runs. On the stack they query the ClickHouse server instead.
// In: HTTP requests on HISTORY_SQL_PORT. Out: the engine's output in the asked format, or a
// ClickHouse-style error (status by error code, `X-ClickHouse-Exception-Code`, `Code: N. DB::Exception:`
// body). What the engine runs and with which limits is History.readOnlyQuery's (chdb-readonly.ts):
// readonly, max_execution_time and max_result_bytes are the engine's settings there.
//
// The subset of ClickHouse's HTTP interface served (what those two clients send):
//   GET /ping (and GET / without a query): `Ok.`, no token needed;
//   GET /?query=... and POST / (the statement in the body, after the `query` parameter if both;
//     the body may be gzip/deflate/br per Content-Encoding, or multipart/form-data with `query` and
//     `param_*` fields);
//   `database` (or X-ClickHouse-Database), `default_format` (or X-ClickHouse-Format), `param_<name>`
//     values of {name:Type} placeholders, `query_id`; any other parameter is a ClickHouse setting;
//   transport parameters the clients send and a per-statement connection makes moot (session_id,
//     wait_end_of_query, client_protocol_version, progress headers, ...) are accepted and ignored;
//   `enable_http_compression=1` compresses the answer with gzip, deflate or br per Accept-Encoding.
// The operator token (HISTORY_SQL_TOKEN) is the password: `Authorization: Basic` (any user name),
// `Authorization: Bearer`, or `X-ClickHouse-Key`; never a URL parameter (URLs end up in logs).
import { createHash, randomUUID, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { hostname } from 'node:os';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type { History, ReadOnlyQuery } from './history.ts';

/** The longest statement (with its form fields) accepted, after decompression. */
export const MAX_REQUEST_BYTES = 1024 * 1024;

/**
 * Statements run at once; more answer 503 (code 202), which both clients retry. chdb runs each on a
 * thread of libuv's pool (4 threads), which the pipeline's own chdb calls and file I/O use too: two
 * long statements must not take all of it.
 */
export const MAX_CONCURRENT = 2;

export interface SqlPortOptions {
  port: number;
  host: string;
  token: string;
  timeoutMs: number;
  maxResultBytes: number;
  logger?: { debug(obj: object, msg: string): void; warn(obj: object, msg: string): void };
}

export interface SqlPort {
  address: string;
  close(): Promise<void>;
}

/** A refusal with its ClickHouse error code and name (the HTTP status follows from the code). */
export class SqlError extends Error {
  constructor(
    readonly code: number,
    readonly type: string,
    message: string,
    readonly status?: number,
  ) {
    super(`Code: ${code}. DB::Exception: ${message}. (${type})`);
  }
}

// ClickHouse's exceptionCodeToHTTPStatus (src/Server/HTTP), for the codes this port can meet.
const STATUS_BY_CODE: Record<number, number> = {
  194: 401, // REQUIRED_PASSWORD
  192: 403, // UNKNOWN_USER
  193: 403, // WRONG_PASSWORD
  497: 403, // ACCESS_DENIED
  516: 403, // AUTHENTICATION_FAILED
  ...Object.fromEntries([6, 8, 15, 25, 26, 27, 36, 38, 41, 44, 53, 62, 72, 117, 321, 427].map((c) => [c, 400])),
  ...Object.fromEntries([46, 47, 50, 56, 60, 63, 73, 81, 115].map((c) => [c, 404])),
  48: 501, // NOT_IMPLEMENTED
  159: 408, // TIMEOUT_EXCEEDED
};

/** The code and text of an engine error (`Code: N. DB::Exception: ...`); anything else is code 1001. */
export function errorOf(e: unknown): { code: number; text: string; status: number } {
  const text = e instanceof Error ? e.message : String(e);
  const m = /^Code: (\d+)\./.exec(text);
  const code = m ? Number(m[1]) : 1001;
  const out = m ? text : `Code: 1001. DB::Exception: ${text}. (STD_EXCEPTION)`;
  const status = (e instanceof SqlError && e.status) || STATUS_BY_CODE[code] || 500;
  return { code, text: out, status };
}

/** Whether `given` is the token, in time independent of where they differ (both hashed first, so lengths do not show either). */
export function tokenMatches(given: string | undefined, token: string): boolean {
  if (given === undefined) return false;
  const a = createHash('sha256').update(given).digest();
  const b = createHash('sha256').update(token).digest();
  return timingSafeEqual(a, b);
}

/** The password a request carries, from any of the places ClickHouse's clients put it. */
export function credentialOf(headers: IncomingMessage['headers']): string | undefined {
  const auth = headers.authorization;
  if (auth) {
    const [scheme, value = ''] = auth.split(' ', 2) as [string, string?];
    if (/^bearer$/i.test(scheme)) return value.trim();
    if (/^basic$/i.test(scheme)) {
      const decoded = Buffer.from(value.trim(), 'base64').toString('utf8');
      const colon = decoded.indexOf(':');
      return colon < 0 ? undefined : decoded.slice(colon + 1);
    }
  }
  const key = headers['x-clickhouse-key'];
  return typeof key === 'string' ? key : undefined;
}

/** URL parameters that are ClickHouse's HTTP transport, not settings: read here or ignored. */
const TRANSPORT = new Set([
  'query',
  'database',
  'default_format',
  'query_id',
  'session_id',
  'session_timeout',
  'session_check',
  'compress',
  'decompress',
  'user',
  'password',
  'quota_key',
  'buffer_size',
  'wait_end_of_query',
  'client_protocol_version',
  'role',
  'stacktrace',
  'enable_http_compression',
  'http_zlib_compression_level',
  'send_progress_in_http_headers',
  'http_headers_progress_interval_ms',
  'cancel_http_readonly_queries_on_client_close',
  'add_http_cors_header',
]);

export interface ParsedRequest {
  query: Omit<ReadOnlyQuery, 'timeoutMs' | 'maxResultBytes'>;
  queryId: string;
  compressAnswer: boolean;
}

/**
 * What a request asks (pure): the statement from the `query` parameter and the body, its database,
 * format, settings and placeholder values. Throws SqlError for what this port refuses.
 */
export function parseRequest(
  url: URL,
  headers: IncomingMessage['headers'],
  body: { text: string; fields?: Map<string, string> },
  defaults: { database: string },
): ParsedRequest {
  const get = (name: string) => body.fields?.get(name) ?? url.searchParams.get(name) ?? undefined;
  for (const name of ['compress', 'decompress'])
    if (get(name) === '1')
      throw new SqlError(48, 'NOT_IMPLEMENTED', `${name}=1 (ClickHouse's own block compression) is not served by this port; use enable_http_compression=1 with Accept-Encoding`);
  const password = url.searchParams.get('password');
  if (password !== null) throw new SqlError(516, 'AUTHENTICATION_FAILED', 'the token is not taken from the URL (it would be logged); send it in the Authorization or X-ClickHouse-Key header');
  const fromUrl = get('query');
  const text = body.fields ? '' : body.text;
  const sql = fromUrl !== undefined && text.length > 0 ? `${fromUrl}\n${text}` : (fromUrl ?? text);
  if (sql.trim().length === 0) throw new SqlError(62, 'SYNTAX_ERROR', 'Empty query');
  const format = get('default_format') ?? header(headers, 'x-clickhouse-format') ?? 'TabSeparated';
  if (!/^[A-Za-z][A-Za-z0-9]*$/.test(format)) throw new SqlError(73, 'UNKNOWN_FORMAT', `Unknown format ${JSON.stringify(format)}`);
  const database = get('database') ?? header(headers, 'x-clickhouse-database') ?? defaults.database;
  const settings: Record<string, string> = {};
  const params: Record<string, string> = {};
  const add = (name: string, value: string) => {
    if (name.startsWith('param_')) params[name.slice('param_'.length)] = value;
    else if (!TRANSPORT.has(name)) settings[name] = value;
  };
  for (const [name, value] of url.searchParams) add(name, value);
  for (const [name, value] of body.fields ?? []) if (name !== 'query') add(name, value);
  for (const name of Object.keys(settings))
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) throw new SqlError(115, 'UNKNOWN_SETTING', `Unknown setting ${JSON.stringify(name)}`);
  return {
    query: { sql, database, format, settings, params },
    queryId: get('query_id') || randomUUID(),
    compressAnswer: get('enable_http_compression') === '1',
  };
}

function header(headers: IncomingMessage['headers'], name: string): string | undefined {
  const v = headers[name];
  return typeof v === 'string' && v.length > 0 ? v : undefined;
}

const decoders: Record<string, (b: Buffer, o: zlib.ZlibOptions & zlib.BrotliOptions) => Promise<Buffer>> = {
  gzip: promisify(zlib.gunzip),
  deflate: promisify(zlib.inflate),
  br: promisify(zlib.brotliDecompress),
};

/** The request body as text (decompressed per Content-Encoding), or its form fields; at most MAX_REQUEST_BYTES. */
async function readBody(req: IncomingMessage): Promise<{ text: string; fields?: Map<string, string> }> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_REQUEST_BYTES) throw new SqlError(36, 'BAD_ARGUMENTS', `The request body is larger than ${MAX_REQUEST_BYTES} bytes`, 413);
    chunks.push(chunk);
  }
  let raw: Buffer = Buffer.concat(chunks);
  const encoding = header(req.headers, 'content-encoding')?.toLowerCase();
  if (encoding && encoding !== 'identity') {
    const decode = decoders[encoding];
    if (!decode) throw new SqlError(36, 'BAD_ARGUMENTS', `Unknown Content-Encoding ${JSON.stringify(encoding)}: gzip, deflate or br`, 415);
    try {
      raw = await decode(raw, { maxOutputLength: MAX_REQUEST_BYTES });
    } catch {
      throw new SqlError(36, 'BAD_ARGUMENTS', `The request body is not valid ${encoding} or is larger than ${MAX_REQUEST_BYTES} bytes decompressed`, 413);
    }
  }
  const type = header(req.headers, 'content-type') ?? '';
  if (/^multipart\/form-data/i.test(type)) {
    // undici's own multipart parser (Node's fetch), for clickhouse-connect's long placeholder values.
    const form = await new Response(new Uint8Array(raw), { headers: { 'content-type': type } }).formData().catch(() => {
      throw new SqlError(36, 'BAD_ARGUMENTS', 'The multipart/form-data body cannot be parsed');
    });
    const fields = new Map<string, string>();
    for (const [name, value] of form) fields.set(name, typeof value === 'string' ? value : await value.text());
    return { text: '', fields };
  }
  return { text: raw.toString('utf8'), fields: undefined };
}

const encoders: Record<string, (b: Uint8Array) => Promise<Buffer>> = {
  gzip: promisify(zlib.gzip),
  deflate: promisify(zlib.deflate),
  br: promisify(zlib.brotliCompress),
};

/** The first of gzip, deflate, br the client accepts. */
function answerEncoding(acceptEncoding: string | undefined): string | undefined {
  const accepted = new Set((acceptEncoding ?? '').split(',').map((s) => s.split(';')[0]!.trim().toLowerCase()));
  return ['gzip', 'deflate', 'br'].find((e) => accepted.has(e));
}

const BINARY = /^(Native|RowBinary.*|Parquet|Arrow.*|ORC|Avro|Protobuf.*|CapnProto|MsgPack|BSONEachRow|Npy)$/i;
function contentTypeOf(format: string): string {
  if (BINARY.test(format)) return 'application/octet-stream';
  if (/^JSON/i.test(format)) return 'application/json; charset=UTF-8';
  return 'text/plain; charset=UTF-8';
}

/** Starts the port on history (which must offer readOnlyQuery: chdb). */
export async function startSqlPort(history: History, opts: SqlPortOptions): Promise<SqlPort> {
  const run = history.readOnlyQuery?.bind(history);
  if (!run) throw new Error(`the history SQL port needs the embedded history (chdb); this History is ${history.kind}`);
  const display = hostname();
  // The engine's version, as ClickHouse appends it to every error text.
  let version = 'unknown';
  await run({ sql: 'SELECT version()', database: history.database, format: 'TabSeparated', settings: {}, params: {}, timeoutMs: opts.timeoutMs, maxResultBytes: opts.maxResultBytes }).then(
    (a) => (version = Buffer.from(a.body).toString('utf8').trim()),
    () => {},
  );

  const fail = (res: ServerResponse, queryId: string, e: unknown) => {
    const { code, text, status } = errorOf(e);
    if (res.headersSent) return void res.destroy();
    res.writeHead(status, {
      'content-type': 'text/plain; charset=UTF-8',
      'x-clickhouse-exception-code': String(code),
      'x-clickhouse-query-id': queryId,
      'x-clickhouse-server-display-name': display,
    });
    res.end(`${text} (version ${version})\n`);
    return code;
  };

  let running = 0;
  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://sql-port');
    const started = performance.now();
    let queryId = url.searchParams.get('query_id') || randomUUID();
    const method = req.method ?? 'GET';
    const ok = () => {
      res.writeHead(200, { 'content-type': 'text/plain; charset=UTF-8' });
      res.end(method === 'HEAD' ? undefined : 'Ok.\n');
    };
    if (url.pathname === '/ping' && (method === 'GET' || method === 'HEAD')) return ok();
    if (url.pathname !== '/') {
      req.resume();
      return fail(res, queryId, new SqlError(36, 'BAD_ARGUMENTS', `There is no handle ${url.pathname}: use / or /ping`, 404));
    }
    if (method === 'GET' && !url.searchParams.has('query')) return ok();
    if (method !== 'GET' && method !== 'POST') {
      req.resume();
      return fail(res, queryId, new SqlError(36, 'BAD_ARGUMENTS', `Method ${method} is not allowed: GET or POST`, 405));
    }
    // The token before anything else of the request is read.
    if (!tokenMatches(credentialOf(req.headers), opts.token)) {
      req.resume();
      return fail(res, queryId, new SqlError(516, 'AUTHENTICATION_FAILED', 'Authentication failed: the token is missing or wrong (HISTORY_SQL_TOKEN, as the password)'));
    }
    if (running >= MAX_CONCURRENT) {
      req.resume();
      return fail(res, queryId, new SqlError(202, 'TOO_MANY_SIMULTANEOUS_QUERIES', `Too many simultaneous queries. Maximum: ${MAX_CONCURRENT}`, 503));
    }
    running++;
    let code = 0;
    try {
      const parsed = parseRequest(url, req.headers, method === 'POST' ? await readBody(req) : { text: '' }, { database: history.database });
      queryId = parsed.queryId;
      const answer = await run({ ...parsed.query, timeoutMs: opts.timeoutMs, maxResultBytes: opts.maxResultBytes });
      const encoding = parsed.compressAnswer ? answerEncoding(header(req.headers, 'accept-encoding')) : undefined;
      const body: Uint8Array = encoding ? await encoders[encoding]!(answer.body) : answer.body;
      res.writeHead(200, {
        'content-type': contentTypeOf(parsed.query.format),
        'x-clickhouse-query-id': queryId,
        'x-clickhouse-timezone': 'UTC',
        'x-clickhouse-server-display-name': display,
        'x-clickhouse-summary': JSON.stringify({
          read_rows: String(answer.rowsRead),
          read_bytes: String(answer.bytesRead),
          written_rows: '0',
          written_bytes: '0',
          total_rows_to_read: String(answer.rowsRead),
          result_bytes: String(answer.body.byteLength),
          elapsed_ns: String(Math.round(answer.elapsedMs * 1e6)),
        }),
        ...(encoding ? { 'content-encoding': encoding } : {}),
      });
      res.end(body);
    } catch (e) {
      code = fail(res, queryId, e) ?? 0;
    } finally {
      running--;
      // What ran and how it ended; never the statement's values, never a header.
      opts.logger?.debug({ component: 'sql-port', query_id: queryId, ms: Math.round(performance.now() - started), code }, 'history SQL statement');
    }
  };

  const server: Server = createServer((req, res) => {
    handle(req, res).catch((e: unknown) => {
      opts.logger?.warn({ component: 'sql-port', err: String(e) }, 'history SQL port: request failed');
      if (!res.headersSent) fail(res, '', e);
      else res.destroy();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, opts.host, () => resolve());
  });
  const a = server.address();
  const address = typeof a === 'object' && a ? `http://${a.address.includes(':') ? `[${a.address}]` : a.address}:${a.port}` : String(a);
  return {
    address,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
      }),
  };
}
