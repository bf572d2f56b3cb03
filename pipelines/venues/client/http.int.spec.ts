import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Agent } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VenueConnectionError, venueGet } from './http.ts';

// venueGet against a real HTTP server: what every venue read (live routes, pollers, rosters) is
// handed back, whatever the transport does underneath.
describe('venueGet', () => {
  let server: Server;
  let base: string;
  const agent = new Agent({ connections: 4 });
  const seen: { accept?: string; auth?: string; url?: string }[] = [];

  beforeAll(async () => {
    server = createServer((req, res) => {
      seen.push({ accept: req.headers.accept, auth: req.headers.authorization, url: req.url });
      const path = (req.url ?? '').split('?')[0];
      if (path === '/split') {
        // A multi-byte character split across two writes, after a BOM.
        const body = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('{"title":"Zürich — ✓"}')]);
        res.writeHead(200, { 'content-type': 'application/json' });
        res.write(body.subarray(0, 12));
        setTimeout(() => res.end(body.subarray(12)), 5);
      } else if (path === '/limited') {
        res.writeHead(429, [
          ['Retry-After', '7'],
          ['X-Note', 'a'],
          ['X-Note', 'b'],
        ]);
        res.end('{"message":"slow down"}');
      } else if (path === '/cut') {
        res.writeHead(200, { 'content-length': '100' });
        res.write('{"partial":');
        setTimeout(() => res.destroy(), 5);
      } else if (path === '/slow') {
        setTimeout(() => res.end('{}'), 2_000).unref();
      } else if (path === '/empty') {
        res.writeHead(204).end();
      } else res.end(JSON.stringify({ path: req.url }));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await agent.close();
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  });

  it('gives status and body text (UTF-8 across chunks, BOM skipped), sending accept and the caller\'s headers', async () => {
    const token = `t-${Math.random().toString(36).slice(2)}`;
    const r = await venueGet(`${base}/split`, { agent, headers: { authorization: `Bearer ${token}` }, signal: AbortSignal.timeout(5_000) });
    expect(r.status).toBe(200);
    expect(r.text).toBe('{"title":"Zürich — ✓"}');
    expect(seen.at(-1)).toMatchObject({ accept: 'application/json', auth: `Bearer ${token}` });
  });

  it('keeps the query string, with a URL object or a string, through the global dispatcher too', async () => {
    const id = `m-${Math.random().toString(36).slice(2)}`;
    const u = new URL(`${base}/markets/${id}`);
    u.searchParams.set('depth', '5');
    expect(JSON.parse((await venueGet(u, { agent, signal: AbortSignal.timeout(5_000) })).text)).toEqual({ path: `/markets/${id}?depth=5` });
    expect(JSON.parse((await venueGet(`${base}/markets/${id}?a=1`, { signal: AbortSignal.timeout(5_000) })).text)).toEqual({ path: `/markets/${id}?a=1` });
    expect((await venueGet(`${base}/empty`, { agent, signal: AbortSignal.timeout(5_000) })).text).toBe('');
  });

  it('each read goes to its own URL: the same text again, another between, a normalized one, one that does not parse', async () => {
    const get = async (u: string | URL) => (JSON.parse((await venueGet(u, { agent, signal: AbortSignal.timeout(5_000) })).text) as { path: string }).path;
    const a = `${base}/markets/a?x=1`;
    expect(await get(a)).toBe('/markets/a?x=1');
    expect(await get(`${base}/markets/a?x=1`)).toBe('/markets/a?x=1');
    expect(await get(`${base}/markets/b`)).toBe('/markets/b');
    expect(await get(a)).toBe('/markets/a?x=1');
    expect(await get(new URL(`${base}/markets/c?y=2`))).toBe('/markets/c?y=2');
    expect(await get(a)).toBe('/markets/a?x=1');
    // Parsed as a URL parses it: dot segments resolved, spaces escaped.
    expect(await get(`${base}/markets/x/../d e`)).toBe('/markets/d%20e');
    await expect(venueGet('not a url', { agent, signal: AbortSignal.timeout(5_000) })).rejects.toThrow();
    expect(await get(a)).toBe('/markets/a?x=1');
  });

  it('gives a fault\'s headers by lower-case name, a repeated one as a list', async () => {
    const r = await venueGet(`${base}/limited`, { agent, signal: AbortSignal.timeout(5_000) });
    expect(r.status).toBe(429);
    expect(r.headers['retry-after']).toBe('7');
    expect(r.headers['x-note']).toEqual(['a', 'b']);
    expect(r.text).toBe('{"message":"slow down"}');
  });

  it('a body cut off is a body failure; no server is a connect failure', async () => {
    const cut = await venueGet(`${base}/cut`, { agent, signal: AbortSignal.timeout(5_000) }).catch((e: unknown) => e);
    expect(cut).toBeInstanceOf(VenueConnectionError);
    expect((cut as VenueConnectionError).phase).toBe('body');
    const probe = createServer();
    await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
    const port = (probe.address() as AddressInfo).port;
    await new Promise((r) => probe.close(r));
    const down = await venueGet(`http://127.0.0.1:${port}/x`, { signal: AbortSignal.timeout(5_000) }).catch((e: unknown) => e);
    expect(down).toBeInstanceOf(VenueConnectionError);
    expect((down as VenueConnectionError).phase).toBe('connect');
  });

  it('ends when the signal aborts, before or while waiting, and the agent serves the next read', async () => {
    const ac = new AbortController();
    const waiting = venueGet(`${base}/slow`, { agent, signal: ac.signal }).catch((e: unknown) => e);
    setTimeout(() => ac.abort(new DOMException('deadline', 'TimeoutError')), 20);
    const e = await waiting;
    expect(e).toBeInstanceOf(VenueConnectionError);
    expect((e as Error).message).toBe('deadline');
    const gone = await venueGet(`${base}/x`, { agent, signal: ac.signal }).catch((x: unknown) => x);
    expect(gone).toBeInstanceOf(VenueConnectionError);
    expect((await venueGet(`${base}/x`, { agent, signal: AbortSignal.timeout(5_000) })).status).toBe(200);
  });
});

describe('venueGet on a shared signal', () => {
  it('holds one abort listener per signal however many reads wait on it, and aborts them all', async () => {
    const server = createServer((req, res) => {
      if (req.url === '/slow') setTimeout(() => res.end('{}'), 2_000).unref();
      else res.end('{}');
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const agent = new Agent({ connections: 8 });
    try {
      const ac = new AbortController();
      const added: string[] = [];
      const add = ac.signal.addEventListener.bind(ac.signal);
      // Counts the listeners the reads add (a spy that still adds them).
      ac.signal.addEventListener = ((type: string, ...rest: unknown[]) => {
        added.push(type);
        return (add as (...a: unknown[]) => void)(type, ...rest);
      }) as AbortSignal['addEventListener'];
      const n = 3 + Math.floor(Math.random() * 4);
      for (let i = 0; i < n; i++) expect((await venueGet(`${base}/x`, { agent, signal: ac.signal })).status).toBe(200);
      const waiting = Array.from({ length: n }, () => venueGet(`${base}/slow`, { agent, signal: ac.signal }).catch((e: unknown) => e));
      await new Promise((r) => setTimeout(r, 20));
      ac.abort(new DOMException('deadline', 'TimeoutError'));
      const out = await Promise.all(waiting);
      expect(out.every((e) => e instanceof VenueConnectionError && e.message === 'deadline')).toBe(true);
      expect(added).toEqual(['abort']);
    } finally {
      await agent.close();
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    }
  });
});
