// For tests of a service running in the test's process, over HTTP (bin/run.e2e.spec.ts,
// bin/run-pipeline-thread.e2e.spec.ts, the TypeScript client's e2e): snapshots appear only after the
// first crawls, so a test waits for what it needs instead of sleeping a fixed time.

/**
 * f() again every second until it gives something other than undefined; past `ms` throws naming what
 * it waited for. `waitOut` says which errors of f() mean "not yet" (the rest are thrown at once).
 */
export async function eventually<T>(what: string, f: () => Promise<T | undefined>, ms = 150_000, waitOut: (e: unknown) => boolean = () => false): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const v = await f().catch((e: unknown) => {
      if (waitOut(e)) return undefined;
      throw e;
    });
    if (v !== undefined) return v;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 1000));
  }
}

/** A GET of the API at `address()` (read at each call: the service starts in a beforeAll), with a key when given. */
export function apiGetter(address: () => string | undefined) {
  // The bodies are the API's JSON as a client sees it; the tests check their shape.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  return async (path: string, key?: string): Promise<{ status: number; body: any }> => {
    const res = await fetch(`${address()}${path}`, { headers: key ? { authorization: `Bearer ${key}` } : {} });
    return { status: res.status, body: await res.json() };
  };
}
