// Errors raised by Node's HTTP parser, before Fastify routes anything, through real sockets (inject
// bypasses the parser): each must carry the catalog's body, X-Request-Id and Vary (spec: "Every
// error on every route has this JSON body", "Every response ... carries X-Request-Id"), and the
// spec's largest legal request (a lookup of 100 venue_9 pairs) must get through the parser.
import { connect } from 'node:net';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { build } from '../test/helper.ts';

interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** Writes the bytes as they are and reads until the server closes (or the response is complete). */
function send(port: number, bytes: string | Buffer): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const sock = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    let done = false;
    const finish = () => {
      if (done) return;
      const text = Buffer.concat(chunks).toString('latin1');
      const end = text.indexOf('\r\n\r\n');
      if (end === -1) return;
      const [statusLine, ...lines] = text.slice(0, end).split('\r\n');
      const headers: Record<string, string> = {};
      for (const l of lines) headers[l.slice(0, l.indexOf(':')).toLowerCase()] = l.slice(l.indexOf(':') + 1).trim();
      const body = text.slice(end + 4);
      if (headers['content-length'] !== undefined && Buffer.byteLength(body, 'latin1') < Number(headers['content-length'])) return;
      done = true;
      sock.destroy();
      resolve({ status: Number(statusLine.split(' ')[1]), headers, body });
    };
    sock.on('data', (c: Buffer) => {
      chunks.push(c);
      finish();
    });
    sock.on('end', finish);
    sock.on('close', () => {
      finish();
      if (!done) reject(new Error(`connection closed without a complete response: ${JSON.stringify(Buffer.concat(chunks).toString('latin1').slice(0, 200))}`));
    });
    sock.on('error', () => {}); // a reset after the response is still a response
    sock.write(bytes);
  });
}

async function listening() {
  const t = await build();
  await t.app.listen({ host: '127.0.0.1', port: 0 });
  return { t, port: (t.app.server.address() as AddressInfo).port };
}

function expectEnvelope(res: RawResponse, status: number, code: string): Record<string, unknown> {
  expect(res.status, res.body).toBe(status);
  expect(res.headers['content-type']).toMatch(/^application\/json/);
  expect(res.headers['x-request-id']).toMatch(/^[A-Za-z0-9_-]{12}$/);
  expect(res.headers.vary).toBe('Accept-Encoding');
  const body = JSON.parse(res.body) as Record<string, unknown>;
  expect(body).toMatchObject({ code, status_code: status });
  expect(typeof body.message).toBe('string');
  return body;
}

describe("errors of Node's HTTP parser carry the catalog's body", () => {
  it('request line and headers over the limit (a long header, a long URL): 400 invalid_parameter, not a bare 431', async () => {
    const { port } = await listening();
    const bigHeader = await send(port, `GET /v1/plans HTTP/1.1\r\nHost: a\r\nX-Big: ${'a'.repeat(40_000)}\r\n\r\n`);
    const body = expectEnvelope(bigHeader, 400, 'invalid_parameter');
    expect(body.message).toContain('exceed');
    const bigUrl = await send(port, `GET /v1/markets?cursor=${'c'.repeat(40_000)} HTTP/1.1\r\nHost: a\r\n\r\n`);
    expectEnvelope(bigUrl, 400, 'invalid_parameter');
  });

  it('bare CR or LF, NUL, a raw space or non-ASCII in the path: 400 invalid_parameter', async () => {
    const { port } = await listening();
    const cases: Array<[string, string | Buffer]> = [
      ['bare CR in a header value', 'GET /v1/plans HTTP/1.1\r\nHost: a\r\nX-A: b\rc\r\n\r\n'],
      ['bare LF ending the request line', 'GET /v1/plans HTTP/1.1\nHost: a\r\n\r\n'],
      ['NUL in the path', 'GET /v1/pl\0ans HTTP/1.1\r\nHost: a\r\n\r\n'],
      ['raw space in the path', 'GET /v1/markets/a b HTTP/1.1\r\nHost: a\r\n\r\n'],
      ['non-ASCII in the path', Buffer.concat([Buffer.from('GET /v1/markets/'), Buffer.from([0xc3, 0xa9]), Buffer.from(' HTTP/1.1\r\nHost: a\r\n\r\n')])],
      ['a header name with a space', 'GET /v1/plans HTTP/1.1\r\nHost: a\r\nBad Header: x\r\n\r\n'],
    ];
    for (const [what, bytes] of cases) {
      const res = await send(port, bytes);
      expect(res.status, what).toBe(400);
      expectEnvelope(res, 400, 'invalid_parameter');
    }
  });

  it('an unknown method (FOO): 405 with Allow on an existing path, 404 elsewhere', async () => {
    const { port } = await listening();
    const known = await send(port, 'FOO /v1/markets?limit=1 HTTP/1.1\r\nHost: a\r\n\r\n');
    const body = expectEnvelope(known, 405, 'method_not_allowed');
    expect(known.headers.allow).toBe('GET');
    expect(body.message).toContain('"FOO"');
    const unknown = await send(port, 'FOO /v1/nope HTTP/1.1\r\nHost: a\r\n\r\n');
    expectEnvelope(unknown, 404, 'route_not_found');
  });

  it('an HTTP/1.1 request without Host: 400 invalid_parameter', async () => {
    const { port } = await listening();
    const res = await send(port, 'GET /v1/plans HTTP/1.1\r\n\r\n');
    const body = expectEnvelope(res, 400, 'invalid_parameter');
    expect(body.message).toContain('Host');
  });

  it('the largest legal request (a lookup of 100 composite venue_9 pairs, ~15.7 KB of URL) with normal headers gets through the parser', async () => {
    const { port } = await listening();
    const hex = (i: number, salt: string) => `0x${(salt + i.toString(16)).padStart(64, '0')}`;
    const ids = Array.from({ length: 100 }, (_, i) => `source_id=venue_9%3A${hex(i, 'a')}%3A${hex(i, 'b')}`);
    const url = `/v1/matching-markets/sports/lookup?${ids.join('&')}&include_settled=true&include_submarkets=true&include_rules=true&player_prop_match=same_prop`;
    expect(url.length).toBeGreaterThan(15_500);
    const headers = [
      'Host: api.example.com',
      `Authorization: Bearer pmk_${'k'.repeat(252)}`,
      'User-Agent: Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36',
      'Accept: application/json',
      `Cookie: ${'session=x'.repeat(400)}`,
      'Connection: close',
    ];
    const res = await send(port, `GET ${url} HTTP/1.1\r\n${headers.join('\r\n')}\r\n\r\n`);
    // Past the parser and the router: the (made-up) key is what is refused.
    expectEnvelope(res, 401, 'invalid_api_key');
  });
});
