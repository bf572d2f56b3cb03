// Bodies serialized once and sent as bytes (snapshot routes: GET /v1/markets and
// GET /v1/matching-markets/sports). In: a response body as JSON text. Out: its bytes, its gzip
// (compressed on first use, then kept), a weak ETag of its content, the If-None-Match check for
// 304, and a byte-bounded memo that keeps them per snapshot page.
// A snapshot never changes once published, so a page of it is a pure function of (snapshot id,
// query): serializing and gzipping it once and reusing the bytes is what lets these routes answer
// at the cost of a map lookup (bench/routes.md).
import { createHash } from 'node:crypto';
import { gzipJson } from './compress.ts';

/**
 * A constant body's JSON text, serialized once (the plan catalog): sent like any JSON body, with no
 * ETag or memo (unlike a snapshot page, nothing about caching it is promised to clients).
 */
export class JsonText {
  constructor(readonly json: string) {}
}

export class EncodedJson {
  readonly json: Buffer;
  /**
   * Weak (W/): the same content is sent gzipped or not, so the tag names the content, not the
   * bytes of one encoding (RFC 9110 8.8.1). A content hash: replicas and snapshots that produce
   * the same page agree on its tag.
   */
  readonly etag: string;
  /** Bytes held, as the memo counts them: the body and an estimate of its gzip (fixed, so counts never drift). */
  readonly size: number;
  private gz: Buffer | Promise<Buffer> | undefined;

  constructor(text: string) {
    this.json = Buffer.from(text, 'utf8');
    this.size = this.json.length + Math.ceil(this.json.length / 3);
    this.etag = `W/"${createHash('sha1').update(this.json).digest('base64url').slice(0, 22)}"`;
  }

  static of(body: unknown): EncodedJson {
    return new EncodedJson(JSON.stringify(body));
  }

  /** The gzip of the body, compressed once. */
  gzip(): Buffer | Promise<Buffer> {
    if (this.gz === undefined) {
      const z = gzipJson(this.json);
      this.gz = z;
      if (z instanceof Promise) void z.then((b) => (this.gz = b), () => (this.gz = undefined));
    }
    return this.gz;
  }

}

/** If-None-Match against one weak ETag (weak comparison, RFC 9110 13.1.2): `*` or any listed tag. */
export function etagMatches(header: string | string[] | undefined, etag: string): boolean {
  if (header === undefined) return false;
  const h = Array.isArray(header) ? header.join(',') : header;
  if (h.trim() === '*') return true;
  const opaque = etag.startsWith('W/') ? etag.slice(2) : etag;
  for (const part of h.split(',')) {
    const t = part.trim();
    if ((t.startsWith('W/') ? t.slice(2) : t) === opaque) return true;
  }
  return false;
}

/**
 * Least-recently-used memo of encoded pages, bounded by bytes. Reads refresh an entry; writes
 * evict the oldest entries until the total is under the budget.
 */
export class EncodedMemo {
  private readonly map = new Map<string, EncodedJson>();
  private bytes = 0;
  constructor(private readonly maxBytes = 64 * 1024 * 1024) {}

  get(key: string): EncodedJson | undefined {
    const v = this.map.get(key);
    if (v !== undefined) {
      this.map.delete(key);
      this.map.set(key, v);
    }
    return v;
  }

  set(key: string, value: EncodedJson): void {
    const old = this.map.get(key);
    if (old) {
      this.bytes -= old.size;
      this.map.delete(key);
    }
    this.map.set(key, value);
    this.bytes += value.size;
    for (const [k, v] of this.map) {
      if (this.bytes <= this.maxBytes || k === key) break;
      this.map.delete(k);
      this.bytes -= v.size;
    }
  }

  clear(): void {
    this.map.clear();
    this.bytes = 0;
  }

  get entries(): number {
    return this.map.size;
  }
}
