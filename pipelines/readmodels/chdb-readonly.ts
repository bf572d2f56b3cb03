// Read-only statements of people outside the service on the process's chdb (the history SQL port,
// sql-port.ts). In: one statement, its database, output format, settings, {name:Type} values and
// limits. Out: the engine's formatted output, or the engine's error text.
//
// Each statement runs on a chdb connection of its own to the process's data directory (chdb allows
// several connections to one directory; they share the engine and its data, each with its own
// settings), opened with `readonly=1`, `max_execution_time` and `max_result_bytes` as engine
// settings: the engine refuses writes, DDL, file/url table functions and any change of a setting,
// SET or SETTINGS clause alike. Nothing here reads the statement's text. The settings a caller asks
// for are given to the connection when it opens, before `readonly` holds (last on the command line,
// so they win); only names the engine lists in system.settings pass, and never readonly or a
// loosened limit. The connection is closed after the statement, so nothing of one caller's
// statement (USE, a setting) reaches the next.
import { Session } from 'chdb';
import type { ReadOnlyAnswer, ReadOnlyQuery } from './history.ts';

/** A ClickHouse-style error: `Code: N. DB::Exception: message. (NAME)`, what the engine's errors say. */
export function engineError(code: number, name: string, message: string): Error {
  const e = new Error(`Code: ${code}. DB::Exception: ${message}. (${name})`);
  e.name = 'ClickHouseError';
  return e;
}

/** Settings held for every statement; a caller may only tighten the two limits. */
const PINNED: Record<string, string | undefined> = {
  readonly: '1',
  result_overflow_mode: 'throw',
  timeout_overflow_mode: 'throw',
  max_execution_time: undefined,
  max_result_bytes: undefined,
};

/** The connection's command line: the caller's settings first, the pinned ones last (the last wins). */
export function connectionArgs(q: Pick<ReadOnlyQuery, 'settings' | 'timeoutMs' | 'maxResultBytes'>, known: ReadonlySet<string>): string[] {
  const limits = { max_execution_time: q.timeoutMs / 1000, max_result_bytes: q.maxResultBytes };
  const args: string[] = [];
  for (const [name, value] of Object.entries(q.settings)) {
    if (!known.has(name)) throw engineError(115, 'UNKNOWN_SETTING', `Unknown setting '${name}'`);
    if (value.includes('\0')) throw engineError(36, 'BAD_ARGUMENTS', `The value of setting '${name}' contains a NUL byte`);
    if (name === 'max_execution_time' || name === 'max_result_bytes') {
      const v = Number(value);
      if (!(Number.isFinite(v) && v > 0 && v <= limits[name]))
        throw engineError(164, 'READONLY', `Cannot modify '${name}' setting in readonly mode: this port allows at most ${limits[name]}`);
      limits[name] = v;
      continue;
    }
    if (name in PINNED) {
      if (value === PINNED[name]) continue;
      throw engineError(164, 'READONLY', `Cannot modify '${name}' setting in readonly mode`);
    }
    args.push(`--${name}=${value}`);
  }
  args.push(
    `--max_execution_time=${limits.max_execution_time}`,
    `--max_result_bytes=${limits.max_result_bytes}`,
    ...Object.entries(PINNED)
      .filter(([, v]) => v !== undefined)
      .map(([k, v]) => `--${k}=${v}`),
  );
  return args;
}

/**
 * A {name:Type} value as ClickHouse's HTTP interface takes it (`param_name`: text in the escaped
 * format, `\N` for NULL), as a value chdb's binding takes (it escapes strings itself).
 */
export function paramValue(text: string): string | null {
  if (text === '\\N') return null;
  const named: Record<string, string> = { b: '\b', f: '\f', r: '\r', n: '\n', t: '\t', '0': '\0', a: '\x07', v: '\v' };
  return text.replace(/\\(.)/gs, (_m, c: string) => named[c] ?? c);
}

const quoteIdent = (name: string) => `\`${name.replace(/\\/g, '\\\\').replace(/`/g, '\\`')}\``;

/** Names of the engine's settings, read once per process (a connection of its own, read-only too). */
let knownSettings: Promise<Set<string>> | null = null;
function settingsOf(dir: string): Promise<Set<string>> {
  knownSettings ??= (async () => {
    const s = new Session(dir, { connectionArgs: ['--readonly=1'] });
    try {
      const r = await s.queryAsync('SELECT name FROM system.settings', { format: 'TabSeparated' });
      return new Set(r.text().split('\n').filter(Boolean));
    } finally {
      s.close();
    }
  })();
  knownSettings.catch(() => (knownSettings = null));
  return knownSettings;
}

/** How long past max_execution_time the answer waits for the engine before it answers the timeout itself. */
const TIMEOUT_GRACE_MS = 2_000;

/** Runs q on a read-only connection to the chdb data directory `dir` (the process's one). */
export async function runReadOnly(dir: string, q: ReadOnlyQuery): Promise<ReadOnlyAnswer> {
  const args = connectionArgs(q, await settingsOf(dir));
  let session: Session;
  try {
    session = new Session(dir, { connectionArgs: args });
  } catch (e) {
    // chdb says only that the connection failed; with the pinned settings alone it opens, so a
    // caller's setting value was refused.
    const names = Object.keys(q.settings);
    if (names.length === 0) throw e;
    throw engineError(36, 'BAD_ARGUMENTS', `Cannot apply the settings ${names.map((n) => `${n}=${JSON.stringify(q.settings[n])}`).join(', ')}: a value is not valid for its setting`);
  }
  try {
    await session.queryAsync(`USE ${quoteIdent(q.database)}`);
    const opts = { format: q.format, timeout: q.timeoutMs + TIMEOUT_GRACE_MS };
    const params = Object.fromEntries(Object.entries(q.params).map(([k, v]) => [k, paramValue(v)]));
    let r;
    try {
      r = Object.keys(params).length > 0 ? await session.queryBindAsync(q.sql, params, opts) : await session.queryAsync(q.sql, opts);
    } catch (e) {
      if ((e as { code?: string }).code === 'CHDB_TIMEOUT')
        throw engineError(159, 'TIMEOUT_EXCEEDED', `Timeout exceeded: the statement ran longer than ${q.timeoutMs} ms`);
      throw e;
    }
    // A copy the caller owns outright (its buffer may move to another thread: history-worker.ts).
    const body = new Uint8Array(r.bytes());
    // max_result_bytes counts the result's columns in memory; formatted text can be larger.
    if (body.byteLength > q.maxResultBytes)
      throw engineError(396, 'TOO_MANY_ROWS_OR_BYTES', `Limit for result exceeded, max bytes: ${q.maxResultBytes}, current bytes: ${body.byteLength} (formatted)`);
    return { body, rowsRead: r.rowsRead, bytesRead: r.bytesRead, elapsedMs: r.elapsed * 1000 };
  } finally {
    // chdb defers the teardown until a statement still running on it (after a timeout) has finished.
    session.close();
  }
}
