// gzip (spec: "Limits": "Responses are compressed for clients sending Accept-Encoding: gzip, and
// carry Vary: Accept-Encoding"). In: the request's Accept-Encoding and the JSON text. Out: the
// body to send and whether it is gzipped. Done here rather than with @fastify/compress: every
// response (errors answered outside any route included) goes through one path, `Vary` is exactly
// `Accept-Encoding` on every response (the plugin adds it only when it compresses, and in lower
// case), small bodies are compressed too, and keyed routes pay no extra hooks.
import { gzip, gzipSync } from 'node:zlib';
import { promisify } from 'node:util';

const gzipAsync = promisify(gzip);
/** Above this many characters, compress off the event loop. */
const SYNC_LIMIT = 64 * 1024;

export const VARY = 'Accept-Encoding';

let lastHeader: string | undefined;
let lastAccepts = false;

/**
 * Whether gzip is acceptable (RFC 9110 content coding negotiation): `gzip` or `x-gzip` with a
 * non-zero q, or `*` with a non-zero q when gzip is not listed. The last header seen is cached:
 * clients repeat the same one.
 */
export function acceptsGzip(header: string | string[] | undefined): boolean {
  if (header === undefined) return false;
  const h = Array.isArray(header) ? header.join(',') : header;
  if (h === lastHeader) return lastAccepts;
  let gzipQ: number | undefined;
  let starQ: number | undefined;
  for (const part of h.split(',')) {
    const [rawName, ...params] = part.split(';');
    const name = rawName.trim().toLowerCase();
    let q = 1;
    for (const p of params) {
      const [k, v] = p.split('=');
      if (k.trim().toLowerCase() === 'q') q = Number(v);
    }
    if (!Number.isFinite(q)) q = 0;
    if (name === 'gzip' || name === 'x-gzip') gzipQ = Math.max(gzipQ ?? 0, q);
    else if (name === '*') starQ = q;
  }
  const accepts = gzipQ !== undefined ? gzipQ > 0 : (starQ ?? 0) > 0;
  lastHeader = h;
  lastAccepts = accepts;
  return accepts;
}

export function gzipJson(json: string | Buffer): Buffer | Promise<Buffer> {
  return json.length < SYNC_LIMIT ? gzipSync(json) : gzipAsync(json);
}
