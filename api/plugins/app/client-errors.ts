// Requests Node's HTTP parser refuses before Fastify sees them (spec: "Every error on every route
// has this JSON body"; "Every response ... carries X-Request-Id"): request line and headers over the
// limit, bare CR or LF, NUL, raw spaces or non-ASCII in the target, an unknown method (`FOO`), a
// request that does not arrive in time. In: the parser's error and the raw socket. Out: one HTTP/1.1
// response written on the socket, then the socket closed (the parser cannot resume on it).
// Statuses stay those of the catalog: an unknown method on an existing path is 405 with Allow, on
// no path 404; everything else is 400 invalid_parameter (there is no 431 or 408 code in the spec).
import type { Socket } from 'node:net';
import { STATUS_CODES } from 'node:http';
import { ApiError, quote, renderError } from '../../errors.ts';
import { VARY } from '../external/compress.ts';
import { nextRequestId } from './request-id.ts';
import type { PathMatcher } from '../../routes/router.ts';

/**
 * Request line plus headers, in bytes (Node's default is 16 KiB). The spec's largest legal request
 * is a lookup of 100 composite venue_9 pairs, about 15.7 KB of URL; this leaves 16 KiB for headers.
 */
export const MAX_HEADER_BYTES = 32 * 1024;

interface ParserError extends Error {
  code?: string;
  reason?: string;
  rawPacket?: Buffer;
}

/** The request line's method and path, as far as the raw bytes show them (for FOO /v1/markets). */
function requestLine(raw: Buffer | undefined): { method: string; path: string } | undefined {
  if (!raw) return undefined;
  const m = /^([!#$%&'*+.^_`|~0-9A-Za-z-]+) (\/[^ \r\n?]*)/.exec(raw.toString('latin1', 0, Math.min(raw.length, 2048)));
  return m ? { method: m[1], path: m[2] } : undefined;
}

export function clientError(err: ParserError, matcher: PathMatcher): ApiError {
  switch (err.code) {
    case 'HPE_HEADER_OVERFLOW':
      return new ApiError('invalid_parameter', `the request line and headers exceed ${MAX_HEADER_BYTES} bytes; send a shorter URL or fewer headers`);
    case 'ERR_HTTP_REQUEST_TIMEOUT':
    case 'ERR_HTTP_HEADERS_TIMEOUT':
      return new ApiError('invalid_parameter', 'the request did not arrive completely in time; send it again');
    case 'HPE_INVALID_METHOD': {
      const line = requestLine(err.rawPacket);
      if (line) {
        const allowed = matcher.allowed(line.path);
        if (allowed) {
          const list = allowed.join(', ');
          return new ApiError('method_not_allowed', `method ${quote(line.method)} is not allowed on ${quote(line.path)}; allowed: ${list}`, { headers: { allow: list } });
        }
        return new ApiError('route_not_found', `no route matches ${quote(line.path)}`);
      }
      return new ApiError('invalid_parameter', 'malformed HTTP request: the method is not a valid HTTP method');
    }
    default:
      return new ApiError(
        'invalid_parameter',
        `malformed HTTP request: ${err.reason ?? err.message} (request lines and headers are ASCII without bare CR, LF or NUL; a path's spaces and non-ASCII characters are percent-encoded)`,
      );
  }
}

/** Fastify's clientErrorHandler: the catalog's body, X-Request-Id and Vary, then close. */
export function clientErrorHandler(matcher: PathMatcher) {
  return function onClientError(error: Error, socket: Socket): void {
    const err = error as ParserError;
    if (err.code === 'ECONNRESET' || socket.destroyed) return;
    // Like Node's own handler: never write into a response already under way on this socket.
    const inFlight = (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
    if (socket.writable && !inFlight?.headersSent) {
      const e = clientError(err, matcher);
      const body = JSON.stringify(renderError(e));
      const extra = Object.entries(e.options.headers ?? {})
        .map(([k, v]) => `${k}: ${v}\r\n`)
        .join('');
      socket.end(
        `HTTP/1.1 ${e.statusCode} ${STATUS_CODES[e.statusCode]}\r\n` +
          `content-type: application/json; charset=utf-8\r\ncontent-length: ${Buffer.byteLength(body)}\r\n` +
          `x-request-id: ${nextRequestId()}\r\nvary: ${VARY}\r\n${extra}connection: close\r\n\r\n${body}`,
      );
      // end, not destroy: a client still sending its headers would get a reset before the answer.
      setTimeout(() => socket.destroy(), 2000).unref();
      return;
    }
    socket.destroy();
  };
}
