// X-Request-Id (spec: "Errors": "a short opaque string generated per request; an X-Request-Id
// sent by the client is ignored and not echoed"). Out: 12 random base64url characters per
// request, cut from a pooled random buffer so the hot path makes no crypto call per request and
// the id reveals nothing (no counter, no clock).
import { randomFillSync } from 'node:crypto';

const POOL = Buffer.alloc(9 * 512);
let offset = POOL.length;

export function nextRequestId(): string {
  if (offset === POOL.length) {
    randomFillSync(POOL);
    offset = 0;
  }
  const id = POOL.toString('base64url', offset, offset + 9);
  offset += 9;
  return id;
}
