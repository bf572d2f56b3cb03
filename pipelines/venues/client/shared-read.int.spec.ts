// Live reads shared by the requests that ask for one venue resource before its read is sent
// (VenueHttp's SharedRead), against a real HTTP server. The pool records each read it sends, in one
// log with the requests' asks, so the tests can say which read answered which request and that the
// read was sent after the request asked (spec, market detail: "read live from the venue at request
// time", "Nothing is cached on this route").
import { createServer, type ServerResponse, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import fc from 'fast-check';
import { Agent, type Dispatcher } from 'undici';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ApiError } from '../../../lib/errors.ts';
import { VenueEndpoints } from './endpoints.ts';
import { NOT_FOUND, VenueHttp } from './http.ts';

type Entry = { kind: 'ask'; i: number } | { kind: 'send'; read: number; path: string };
const log: Entry[] = [];

/** The pool that numbers every read it sends (header x-read, echoed by the venue) in the shared log. */
class RecordingAgent extends Agent {
  sent = 0;
  override dispatch(opts: Dispatcher.DispatchOptions, handler: Dispatcher.DispatchHandler): boolean {
    const read = ++this.sent;
    log.push({ kind: 'send', read, path: opts.path });
    return super.dispatch({ ...opts, headers: { ...(opts.headers as Record<string, string>), 'x-read': String(read) } }, handler);
  }
}

let server: Server;
let base: string;
/** Reads of /hold/... wait here until the test releases them. */
const held: { url: string; res: ServerResponse; closedEarly: Promise<boolean> }[] = [];
let onHeld: (() => void) | undefined;
const PAD = 'x'.repeat(4000);

beforeAll(async () => {
  server = createServer((req, res) => {
    const url = req.url ?? '';
    const read = req.headers['x-read'];
    const path = url.split('?')[0];
    if (path.includes('/missing/')) return void res.writeHead(404).end('{"message":"no such market"}');
    if (path.includes('/limited/')) return void res.writeHead(429, { 'Retry-After': '7' }).end('{"message":"slow down"}');
    if (path.includes('/rejected/')) return void res.writeHead(400).end('{"message":"bad market id"}');
    if (path.includes('/broken/')) return void res.writeHead(500).end('oops');
    // Closed under the read before any answer: every time, or on the first read of the path only.
    if (path.includes('/reset/') || (path.includes('/reset-once/') && read === '1')) return void req.socket.destroy();
    if (path.includes('/hold/')) {
      const closedEarly = new Promise<boolean>((r) => res.on('close', () => r(!res.writableFinished)));
      held.push({ url, res, closedEarly });
      onHeld?.();
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ url, read: Number(read), pad: PAD }));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});

let agent: RecordingAgent;
let http: VenueHttp;
beforeEach(() => {
  log.length = 0;
  held.length = 0;
  agent = new RecordingAgent({ connections: 16 });
  http = new VenueHttp({ baseUrl: base, agent });
  return async () => {
    for (const h of held) if (!h.res.writableEnded) h.res.destroy();
    await http.close();
  };
});

const rid = () => Math.random().toString(36).slice(2, 10);
const turn = () => new Promise<void>((r) => setImmediate(r));
/** Resolves once the venue holds `n` reads of /hold/ in all. */
const holding = (n: number) =>
  new Promise<void>((r) => {
    const check = () => {
      if (held.length >= n) {
        onHeld = undefined;
        r();
      }
    };
    onHeld = check;
    check();
  });
const release = (h: (typeof held)[number]) => h.res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ url: h.url, read: Number(h.res.req.headers['x-read']), pad: PAD }));
const deadline = () => AbortSignal.timeout(5_000);

describe('requests for one venue resource before its read is sent', () => {
  it('share one read and its one parse: each gets the whole answer, the same parsed value', async () => {
    const path = `/venue_3/v1/markets/${rid()}`;
    const signal = deadline();
    const answers = await Promise.all([1, 2, 3, 4, 5].map(() => http.getJson('venue_3', path, {}, signal)));
    expect(agent.sent).toBe(1);
    for (const a of answers) expect(a).toEqual({ url: path, read: 1, pad: PAD });
    // Parsed once for all (no reader writes into it: the live routes' suites read every venue with
    // the answers frozen); a later read is parsed anew.
    expect(new Set(answers).size).toBe(1);
    const later = await http.getJson('venue_3', path, {}, signal);
    expect(later).toEqual({ url: path, read: 2, pad: PAD });
    expect(later).not.toBe(answers[0]);
  });

  it('a request that asks once the read was sent makes a new read and gets that one\'s answer', async () => {
    const path = `/venue_3/v1/markets/hold/${rid()}`;
    const first = http.getJson('venue_3', path, {}, deadline());
    await holding(1);
    const second = http.getJson('venue_3', path, {}, deadline());
    await holding(2);
    held.forEach(release);
    expect(await first).toMatchObject({ read: 1 });
    expect(await second).toMatchObject({ read: 2 });
    expect(agent.sent).toBe(2);
  });

  it('different resources (venue, path or query) never share', async () => {
    const id = rid();
    const signal = deadline();
    const asks: [string, string, Record<string, string | number | undefined>][] = [
      ['venue_3', `/venue_3/v1/markets/${id}`, {}],
      ['venue_2', `/venue_2/markets/${id}`, {}],
      ['venue_3', `/venue_3/v1/markets/${id}`, { depth: 1 }],
      ['venue_3', `/venue_3/v1/markets/${id}`, { depth: 2 }],
      ['venue_3', `/venue_3/v1/markets/${id}x`, {}],
    ];
    const answers = (await Promise.all(asks.map(([v, p, q]) => http.getJson(v, p, q, signal)))) as { url: string; read: number }[];
    expect(agent.sent).toBe(5);
    expect(answers.map((a) => a.url)).toEqual([`/venue_3/v1/markets/${id}`, `/venue_2/markets/${id}`, `/venue_3/v1/markets/${id}?depth=1`, `/venue_3/v1/markets/${id}?depth=2`, `/venue_3/v1/markets/${id}x`]);
    expect(new Set(answers.map((a) => a.read)).size).toBe(5);
  });

  it('for any arrival schedule: every answer comes from the first read of its resource sent after its request asked', async () => {
    // A timer may fire before or after the turn that sends the reads asked just before it, so the
    // property is read from the log: which read each request got, against the reads sent after it asked.
    const gap = fc.constantFrom('none', 'microtask', 'turn', 'timer');
    await fc.assert(
      fc.asyncProperty(fc.array(fc.record({ resource: fc.integer({ min: 0, max: 2 }), gap }), { minLength: 1, maxLength: 12 }), async (steps) => {
        log.length = 0;
        const sentBefore = agent.sent;
        const run = rid();
        const pathOf = (r: number) => `/venue_3/v1/markets/${run}-${r}`;
        const signal = deadline();
        const pending: Promise<unknown>[] = [];
        // At most one read per resource asked between two turns of the loop (a timer counted as a
        // turn: the most reads a schedule may make).
        let most = 0;
        let inTurn = new Set<number>();
        for (const [i, s] of steps.entries()) {
          if (s.gap === 'microtask') await Promise.resolve();
          if (s.gap === 'turn') await turn();
          if (s.gap === 'timer') await new Promise((r) => setTimeout(r, 1));
          if (s.gap === 'turn' || s.gap === 'timer') inTurn = new Set();
          if (!inTurn.has(s.resource)) most++;
          inTurn.add(s.resource);
          log.push({ kind: 'ask', i });
          pending.push(http.getJson('venue_3', pathOf(s.resource), {}, signal));
        }
        const answers = (await Promise.all(pending)) as { url: string; read: number }[];
        const reads = agent.sent - sentBefore;
        expect(reads).toBeLessThanOrEqual(most);
        answers.forEach((a, i) => {
          const path = pathOf(steps[i].resource);
          expect(a.url).toBe(path);
          const askedAt = log.findIndex((e) => e.kind === 'ask' && e.i === i);
          const firstAfter = log.findIndex((e, at) => at > askedAt && e.kind === 'send' && e.path === path);
          expect(log[firstAfter]).toMatchObject({ kind: 'send', read: a.read });
        });
      }),
      { numRuns: 80 },
    );
  });

  it('requests asked in one turn share; after a turn of the loop a new read is made', async () => {
    const path = `/venue_3/v1/markets/${rid()}`;
    const signal = deadline();
    const first = [http.getJson('venue_3', path, {}, signal), http.getJson('venue_3', path, {}, signal)];
    await Promise.resolve();
    first.push(http.getJson('venue_3', path, {}, signal));
    await turn();
    const second = [http.getJson('venue_3', path, {}, signal), http.getJson('venue_3', path, {}, signal)];
    expect(((await Promise.all(first)) as { read: number }[]).map((a) => a.read)).toEqual([1, 1, 1]);
    expect(((await Promise.all(second)) as { read: number }[]).map((a) => a.read)).toEqual([2, 2]);
  });

  it('one that leaves (its signal aborts) gets 502 at once; the others get the whole answer of the one read', async () => {
    const path = `/venue_3/v1/markets/hold/${rid()}`;
    const controllers = [new AbortController(), new AbortController(), new AbortController()];
    const asks = controllers.map((c) => http.getJson('venue_3', path, {}, c.signal));
    await holding(1);
    controllers[1].abort(new DOMException('gone', 'TimeoutError'));
    const left = await asks[1].then(
      () => null,
      (e: unknown) => e,
    );
    expect(left).toBeInstanceOf(ApiError);
    expect([(left as ApiError).code, (left as ApiError).statusCode, (left as ApiError).message]).toEqual(['upstream_unavailable', 502, 'venue_3 gave no valid answer: no answer within the request deadline']);
    release(held[0]);
    expect(await asks[0]).toEqual({ url: path, read: 1, pad: PAD });
    expect(await asks[2]).toEqual({ url: path, read: 1, pad: PAD });
    expect(await held[0].closedEarly).toBe(false);
    expect(agent.sent).toBe(1);
  });

  it('the read is aborted when every joiner has left, and never sent when they left before it was', async () => {
    const path = `/venue_3/v1/markets/hold/${rid()}`;
    const a = [new AbortController(), new AbortController()];
    const asks = a.map((c) => http.getJson('venue_3', path, {}, c.signal).catch((e: unknown) => e));
    await holding(1);
    a.forEach((c) => c.abort(new DOMException('gone', 'TimeoutError')));
    expect(await held[0].closedEarly).toBe(true);
    for (const e of await Promise.all(asks)) expect((e as ApiError).code).toBe('upstream_unavailable');

    const before = agent.sent;
    const b = [new AbortController(), new AbortController()];
    const early = b.map((c) => http.getJson('venue_3', `/venue_3/v1/markets/${rid()}`, {}, c.signal).catch((e: unknown) => e));
    b.forEach((c) => c.abort(new DOMException('gone', 'TimeoutError')));
    await turn();
    await turn();
    expect(agent.sent).toBe(before);
    for (const e of await Promise.all(early)) expect([(e as ApiError).code, (e as ApiError).message]).toEqual(['upstream_unavailable', 'venue_3 gave no valid answer: the request deadline passed']);
  });

  it('joiners under one signal (one deadline) leave together when it aborts; joiners under another still get the answer', async () => {
    const path = `/venue_3/v1/markets/hold/${rid()}`;
    const shared = new AbortController();
    const other = new AbortController();
    const asks = [shared, shared, other, shared].map((c) => http.getJson('venue_3', path, {}, c.signal).catch((e: unknown) => e));
    await holding(1);
    shared.abort(new DOMException('gone', 'TimeoutError'));
    for (const i of [0, 1, 3]) expect([((await asks[i]) as ApiError).code, ((await asks[i]) as ApiError).message]).toEqual(['upstream_unavailable', 'venue_3 gave no valid answer: no answer within the request deadline']);
    release(held[0]);
    expect(await asks[2]).toEqual({ url: path, read: 1, pad: PAD });
    expect(await held[0].closedEarly).toBe(false);
    expect(agent.sent).toBe(1);

    // All under one signal: its abort leaves every one of them, and aborts the read itself.
    const one = new AbortController();
    const path2 = `/venue_3/v1/markets/hold/${rid()}`;
    const again = [1, 2, 3].map(() => http.getJson('venue_3', path2, {}, one.signal).catch((e: unknown) => e));
    await holding(2);
    one.abort(new DOMException('gone', 'TimeoutError'));
    expect(await held[1].closedEarly).toBe(true);
    for (const e of await Promise.all(again)) expect((e as ApiError).code).toBe('upstream_unavailable');

    // Under one signal and answered: every joiner gets the answer.
    const path3 = `/venue_3/v1/markets/${rid()}`;
    const signal = deadline();
    const answered = (await Promise.all([1, 2, 3].map(() => http.getJson('venue_3', path3, {}, signal)))) as { read: number }[];
    expect(answered.map((a) => a.read)).toEqual([3, 3, 3]);
  });

  it.each([
    ['missing', 'a 404 (NOT_FOUND)'],
    ['limited', '429 upstream_rate_limited with Retry-After'],
    ['rejected', '400 upstream_rejected with the venue\'s message'],
    ['broken', '502 upstream_unavailable'],
  ])('a venue answer %s reaches every joiner as it reaches a request alone: %s', async (kind) => {
    const path = `/venue_3/v1/markets/${kind}/${rid()}`;
    const outcome = (p: Promise<unknown>) =>
      p.then(
        (v) => (v === NOT_FOUND ? 'NOT_FOUND' : v),
        (e: ApiError) => ({ code: e.code, status: e.statusCode, message: e.message, headers: e.options.headers }),
      );
    const signal = deadline();
    const joined = await Promise.all([1, 2, 3].map(() => outcome(http.getJson('venue_3', path, {}, signal))));
    expect(agent.sent).toBe(1);
    const alone = await outcome(http.getJson('venue_3', path, {}, signal));
    expect(agent.sent).toBe(2);
    expect(joined).toEqual([alone, alone, alone]);
    if (kind === 'missing') expect(alone).toBe('NOT_FOUND');
    else expect(alone).toMatchObject({ missing: undefined, limited: { code: 'upstream_rate_limited', status: 429, headers: { 'Retry-After': '7' } }, rejected: { code: 'upstream_rejected', status: 400, message: 'venue_3 rejected the request (HTTP 400): bad market id' }, broken: { code: 'upstream_unavailable', status: 502 } }[kind]!);
  });

  it('each joiner of a failed read gets an error of its own (same code, message and headers; no object shared between requests)', async () => {
    const path = `/venue_3/v1/markets/limited/${rid()}`;
    const signal = deadline();
    const errors = (await Promise.all([1, 2, 3].map(() => http.getJson('venue_3', path, {}, signal).catch((e: unknown) => e)))) as ApiError[];
    expect(agent.sent).toBe(1);
    for (const e of errors) expect([e.code, e.message, e.options.headers]).toEqual(['upstream_rate_limited', 'venue_3 rate-limited the request; retry after 7 s', { 'Retry-After': '7' }]);
    expect(new Set(errors).size).toBe(3);
    expect(new Set(errors.map((e) => e.options.headers)).size).toBe(3);
  });

  it('a shared read counts once against the venue\'s request budget', async () => {
    const budgeted = new VenueHttp({ baseUrl: base, agent: new RecordingAgent({ connections: 4 }), endpoints: new VenueEndpoints(base, { venue_3: { baseUrl: base, rps: 1 } }) });
    try {
      const path = `/venue_3/v1/markets/${rid()}`;
      const signal = deadline();
      // Alone, rps 1 admits the first at once, holds the second its second and refuses the third.
      const answers = await Promise.all([1, 2, 3].map(() => budgeted.getJson('venue_3', path, {}, signal)));
      for (const a of answers) expect(a).toMatchObject({ read: 1 });
    } finally {
      await budgeted.close();
    }
  });
});

describe('a connection closed under a read before any answer', () => {
  it('is tried once more, on another connection, and every request of the read gets that answer', async () => {
    const path = `/venue_3/v1/markets/reset-once/${rid()}`;
    const signal = deadline();
    const answers = await Promise.all([1, 2, 3].map(() => http.getJson('venue_3', path, {}, signal)));
    expect(agent.sent).toBe(2);
    for (const a of answers) expect(a).toEqual({ url: path, read: 2, pad: PAD });
  });

  it('closed again: the requests get 502 upstream_unavailable after the second try, no third', async () => {
    const path = `/venue_3/v1/markets/reset/${rid()}`;
    const e = await http.getJson('venue_3', path, {}, deadline()).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(ApiError);
    expect((e as ApiError).code).toBe('upstream_unavailable');
    expect((e as ApiError).message).toMatch(/^venue_3 gave no valid answer: connection failed/);
    expect(agent.sent).toBe(2);
  });

  it('a refused connection (no venue listening) is not tried again', async () => {
    const closed = createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((r) => closed.close(r));
    const refusing = new RecordingAgent({ connections: 1 });
    const h = new VenueHttp({ baseUrl: `http://127.0.0.1:${port}`, agent: refusing });
    const e = await h.getJson('venue_3', `/venue_3/v1/markets/${rid()}`, {}, deadline()).catch((x: unknown) => x);
    await h.close();
    expect((e as ApiError).code).toBe('upstream_unavailable');
    expect(refusing.sent).toBe(1);
  });
});
