// The client's retry policy and errors against a scripted fetch (no server): what is retried
// (429 after Retry-After, capped at 60 s; 502/503 and network errors with doubling backoff), what
// never is (400/401/402/403/404/405/409), and what an ApiError carries. Also: the generated types
// are those of the API's current OpenAPI document (the document's hash is stamped in schema.ts).
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { buildOpenApi } from '../../../api/openapi.ts';
import { ApiError, MAX_RETRY_DELAY_MS, PmClient, isQuoteEvent, type StreamEvent } from './index.ts';

type Reply = { status: number; body?: unknown; headers?: Record<string, string> } | Error;

function scripted(replies: Reply[]) {
  const calls: { url: string; headers: Record<string, string> }[] = [];
  const sleeps: number[] = [];
  const fetch = (async (url: string, init: { headers: Record<string, string> }) => {
    calls.push({ url, headers: init.headers });
    const r = replies.shift();
    if (!r) throw new Error('no scripted reply left');
    if (r instanceof Error) throw r;
    return new Response(JSON.stringify(r.body ?? {}), { status: r.status, headers: { 'content-type': 'application/json', ...r.headers } });
  }) as unknown as typeof globalThis.fetch;
  const client = new PmClient({ baseUrl: 'http://api.test/', apiKey: 'pmk_test', fetch, sleep: async (ms) => void sleeps.push(ms), maxRetries: 3, backoffMs: 500 });
  return { client, calls, sleeps };
}

const err = (status: number, code: string, extra: Record<string, unknown> = {}, headers: Record<string, string> = {}): Reply => ({
  status,
  body: { code, message: `${code} happened`, status_code: status, ...extra },
  headers: { 'x-request-id': `req-${status}`, ...headers },
});

describe('retry policy', () => {
  it('retries 429 after Retry-After (capped at 60 s), then succeeds', async () => {
    const { client, calls, sleeps } = scripted([err(429, 'rate_limited', {}, { 'retry-after': '2' }), err(429, 'rate_limited', {}, { 'retry-after': '600' }), { status: 200, body: { data: [] } }]);
    await expect(client.categories()).resolves.toEqual({ data: [] });
    expect(calls).toHaveLength(3);
    expect(sleeps).toEqual([2000, MAX_RETRY_DELAY_MS]);
  });

  it('retries 502, 503 and network errors with doubling backoff, and gives up after maxRetries', async () => {
    const { client, calls, sleeps } = scripted([err(502, 'upstream_unavailable'), new TypeError('fetch failed'), err(503, 'service_unavailable'), err(503, 'service_unavailable')]);
    const e = await client.market('venue_3:1').catch((x: unknown) => x);
    expect(e).toBeInstanceOf(ApiError);
    expect(e).toMatchObject({ status: 503, code: 'service_unavailable', requestId: 'req-503' });
    expect(calls).toHaveLength(4);
    expect(sleeps).toEqual([500, 1000, 2000]);
  });

  it.each([
    [400, 'invalid_parameter'],
    [401, 'invalid_api_key'],
    [402, 'payment_required'],
    [403, 'forbidden'],
    [404, 'market_not_found'],
    [405, 'method_not_allowed'],
    [409, 'ambiguous_identifier'],
  ])('never retries %i', async (status, code) => {
    const { client, calls, sleeps } = scripted([err(status, code), { status: 200 }]);
    await expect(client.market('123')).rejects.toMatchObject({ status, code });
    expect(calls).toHaveLength(1);
    expect(sleeps).toEqual([]);
  });
});

describe('requests and errors', () => {
  it('sends the key, asks for gzip, repeats array parameters and leaves undefined ones out', async () => {
    const { client, calls } = scripted([{ status: 200, body: { data: [], lookups: {}, snapshot: { observed_at: null } } }]);
    await client.sportsLookup({ source_id: ['venue_2:a', 'venue_3:b'], event_id: 'nba-lal-bos-2026-11-21', include_rules: undefined });
    expect(calls[0].url).toBe('http://api.test/v1/matching-markets/sports/lookup?source_id=venue_2%3Aa&source_id=venue_3%3Ab&event_id=nba-lal-bos-2026-11-21');
    expect(calls[0].headers).toMatchObject({ authorization: 'Bearer pmk_test', 'accept-encoding': 'gzip' });
  });

  it('a 409 carries candidates and param; a lookup 400 carries every problem', async () => {
    const { client } = scripted([
      err(409, 'ambiguous_identifier', { param: 'market_id', candidates: ['venue_3', 'venue_7'] }),
      err(400, 'invalid_parameter', { param: 'source_id', errors: [{ param: 'source_id', value: 'x', message: 'bare id "x"' }] }),
    ]);
    await expect(client.market('123')).rejects.toMatchObject({ code: 'ambiguous_identifier', param: 'market_id', candidates: ['venue_3', 'venue_7'], message: 'ambiguous_identifier happened' });
    await expect(client.sportsLookup({ source_id: 'x' })).rejects.toMatchObject({ errors: [{ param: 'source_id', value: 'x', message: 'bare id "x"' }] });
  });

  it('iterates a list to its end through next_cursor', async () => {
    const page = (ids: string[], next?: string) => ({
      status: 200,
      body: { data: ids.map((id) => ({ id, provider: 'venue_1', title: id, category: 'sports' })), pagination: { limit: 2, total: 3, has_more: !!next, ...(next && { next_cursor: next }) }, snapshot: { observed_at: null } },
    });
    const { client, calls } = scripted([page(['a', 'b'], 'c1'), page(['c'])]);
    const ids: string[] = [];
    for await (const row of client.allMarkets({ limit: 2, provider: 'venue_1' })) ids.push(row.id);
    expect(ids).toEqual(['a', 'b', 'c']);
    expect(calls.map((c) => c.url)).toEqual(['http://api.test/v1/markets?limit=2&provider=venue_1', 'http://api.test/v1/markets?limit=2&provider=venue_1&cursor=c1']);
  });
});

describe('stream()', () => {
  const sse = (text: string) =>
    new Response(new ReadableStream({ start: (c) => (c.enqueue(new TextEncoder().encode(text)), c.close()) }), { status: 200, headers: { 'content-type': 'text/event-stream' } });

  it('yields the events, skips heartbeats, and after a dropped connection resumes from the last id', async () => {
    const bodies = [
      sse('id: p1\nevent: snapshot\ndata: {"channel":"sports","data":[]}\n\n: heartbeat\n\nid: p2\nevent: event.updated\ndata: {"event_id":"a"}\n\n'),
      sse('id: p3\nevent: event.removed\ndata: {"event_id":"a","reason":"settled"}\n\n'),
    ];
    const seen: Record<string, string>[] = [];
    const fetch = (async (_url: string, init: { headers: Record<string, string> }) => {
      seen.push(init.headers);
      const b = bodies.shift();
      if (!b) throw new TypeError('fetch failed');
      return b;
    }) as unknown as typeof globalThis.fetch;
    const client = new PmClient({ baseUrl: 'http://api.test', apiKey: 'pmk_test', fetch, sleep: async () => {}, maxRetries: 1 });
    const got: StreamEvent[] = [];
    await expect(
      (async () => {
        for await (const ev of client.stream({ channel: 'sports' })) got.push(ev);
      })(),
    ).rejects.toMatchObject({ code: 'network_error' });
    expect(got.map((e) => [e.id, e.event])).toEqual([
      ['p1', 'snapshot'],
      ['p2', 'event.updated'],
      ['p3', 'event.removed'],
    ]);
    expect(got[2].data).toEqual({ event_id: 'a', reason: 'settled' });
    expect(seen.map((h) => h['last-event-id'])).toEqual([undefined, 'p2', 'p3', 'p3']);
    expect(seen[0]).toMatchObject({ authorization: 'Bearer pmk_test', accept: 'text/event-stream' });
  });

  it('narrows a quote event to its market, outcomes and pricing', async () => {
    const quote = { market_id: 'venue_1:KXA-1', status: 'open', outcomes: [{ name: 'Yes', outcome_id: 'yes', price: 0.45, bid: 0.44, ask: 0.46, last: 0.45 }], pricing: { availability: 'live' } };
    const body = sse(`id: q1\nevent: snapshot\ndata: {"channel":"quotes","data":[]}\n\nid: q2\nevent: quote\ndata: ${JSON.stringify(quote)}\n\n`);
    const client = new PmClient({ baseUrl: 'http://api.test', apiKey: 'pmk_test', fetch: (async () => body) as unknown as typeof globalThis.fetch, sleep: async () => {} });
    const got: StreamEvent[] = [];
    for await (const ev of client.stream({ channel: 'quotes', market_id: ['venue_1:KXA-1'] })) {
      got.push(ev);
      if (got.length === 2) break;
    }
    expect(got.map(isQuoteEvent)).toEqual([false, true]);
    const q = got[1]!;
    if (!isQuoteEvent(q)) throw new Error('not a quote');
    expect([q.data.market_id, q.data.outcomes[0]!.bid]).toEqual(['venue_1:KXA-1', 0.44]);
  });

  it('throws a refusal it must not retry', async () => {
    const { client } = scripted([err(400, 'invalid_parameter', { param: 'channel' })]);
    const it = client.stream({ channel: 'sports' })[Symbol.asyncIterator]();
    await expect(it.next()).rejects.toMatchObject({ status: 400, code: 'invalid_parameter', param: 'channel' });
  });
});

describe('generated types', () => {
  it('were generated from the current OpenAPI document (else: npm run generate in clients/typescript)', () => {
    const stamped = /openapi-sha256: ([0-9a-f]{64})/.exec(readFileSync(new URL('./schema.ts', import.meta.url), 'utf8'))?.[1];
    expect(stamped).toBe(createHash('sha256').update(JSON.stringify(buildOpenApi())).digest('hex'));
  });
});
