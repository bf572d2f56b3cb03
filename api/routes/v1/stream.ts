// GET /v1/stream: the push stream (Server-Sent Events; WebSocket on an upgrade of the same URL).
// In: the typed query (the router already rejected unknown, repeated and empty parameters and
// type-checked booleans, enums and dates; the key was checked for `stream.read` and the connect
// charged one request against the rate limit) and deps.stream (the process's hub). Out: a stream of
// events (api/stream/connection.ts); events count against nothing. Refused before it opens: more
// concurrent streams than the plan allows (429 rate_limited, per account across every replica sharing
// the key store: slots leased in it, api/auth/store.ts), the hub
// not caught up with the log yet (503).
import { randomUUID } from 'node:crypto';
import { ApiError, apiErrorFromItems, quote, type ErrorItem } from '../../errors.ts';
import { STREAM_LIMITS, type PlanKey } from '../../auth/plans.ts';
import type { RouteHandler } from '../../types.ts';
import type { League } from '../table.ts';
import type { PropPolicy } from '../../../pipelines/matching/readmodel.ts';
import { StreamConnection, type Sink } from '../../stream/connection.ts';
import { sseSink } from '../../stream/sse-sink.ts';
import { CatalogConnection } from '../../stream/catalog.ts';
import type { StreamIO, StreamSocket } from '../../stream/types.ts';
import type { SportsFilter } from '../../stream/sports.ts';
import { QuotesConnection, type QuotesHub } from '../../stream/quotes-hub.ts';
import { planResolution } from '../../live/identifiers.ts';
import { venue7MarketKey } from '../../../pipelines/venues/adapters/venue_7/identifiers.ts';
import { isApiError } from '../../errors.ts';

export type { StreamDeps, StreamIO, StreamSocket } from '../../stream/types.ts';

/** How long a stream's slot lasts without a renewal (renewed every third of it while open). */
export const STREAM_SLOT_MS = 60_000;

const wsFrame = (id: string, type: string, json: string) => `{"id":${JSON.stringify(id || null)},"event":${JSON.stringify(type)},"data":${json}}`;

function wsSink(socket: StreamSocket): Sink {
  // A client that answered no ping between two heartbeats is gone: one that vanished without a close
  // (no FIN) keeps its TCP connection, and its plan slot, for many minutes. Dropped, its slot is freed.
  let answered = true;
  socket.on('pong', () => (answered = true));
  return {
    event(id, type, json, shared) {
      if (shared) socket.send((shared.ws ??= wsFrame(id, type, json)));
      else socket.send(wsFrame(id, type, json));
    },
    heartbeat() {
      if (!answered) return socket.terminate();
      answered = false;
      socket.ping();
    },
    buffered: () => socket.bufferedAmount,
    close() {
      socket.close(1000);
    },
  };
}

function filterOf(t: Record<string, unknown>, raw: Record<string, unknown>): SportsFilter {
  const items: ErrorItem[] = [];
  const includeSubmarkets = t.include_submarkets === true;
  let policy: PropPolicy = 'strict';
  if (t.player_prop_match !== undefined) {
    if (!includeSubmarkets) {
      items.push({
        param: 'player_prop_match',
        value: raw.player_prop_match as string,
        message: `player_prop_match requires include_submarkets=true; got player_prop_match=${quote(raw.player_prop_match)} with include_submarkets=false`,
      });
    }
    policy = t.player_prop_match as PropPolicy;
  }
  const participant = typeof t.participant === 'string' ? t.participant.trim() : undefined;
  if (participant !== undefined && (participant.includes(',') || participant === '')) {
    items.push({ param: 'participant', value: t.participant as string, message: `participant takes one key only (pair it with league); got ${quote(t.participant)}` });
  }
  if (items.length) throw apiErrorFromItems('invalid_parameter', items);
  return {
    league: t.league as League | undefined,
    scheduledDate: t.scheduled_date as string | undefined,
    participant,
    includeSettled: t.include_settled === true,
    shape: { includeSubmarkets, includeRules: t.include_rules === true, policy },
  };
}

/** The sports list's filters: they mean nothing on another channel. */
const SPORTS_PARAMS = ['league', 'scheduled_date', 'participant', 'include_settled', 'include_submarkets', 'include_rules', 'player_prop_match'];
const QUOTES_PARAMS = ['market_id', 'provider'];

/** Markets one quotes subscription may name (as the lookup's identifiers: "at most 100 unique"). */
export const MAX_QUOTE_MARKETS = 100;

/** The parameters of other channels sent to this one: each is 400 invalid_parameter quoting it. */
function foreignParams(q: Record<string, unknown>, channel: string, params: string[], owner: string): ErrorItem[] {
  return params
    .filter((p) => q[p] !== undefined)
    .map((p) => {
      const v = Array.isArray(q[p]) ? (q[p] as string[]).join(',') : (q[p] as string);
      return { param: p, value: v, message: `${p} belongs to ${owner}; channel=${channel} does not take it, got ${p}=${quote(v)}` };
    });
}

/**
 * Each market_id as the composite id it names, by market detail's resolution rules (composite,
 * native with provider, venue_1 tickers and venue_4 hashes inferred). The venue_2/venue_3 shapes
 * market detail probes both venues for are settled by what the log has quoted: one holds it, that
 * one; both or neither, 400 naming the composite forms. Every problem is one `errors[]` item
 * (invalid_parameter, param market_id) quoting the value.
 */
function quoteMarketsOf(hub: QuotesHub, values: readonly string[], provider: string | undefined): string[] {
  const items: ErrorItem[] = [];
  const unique = [...new Set(values.map((v) => v.trim()))];
  if (unique.length > MAX_QUOTE_MARKETS) {
    throw apiErrorFromItems('invalid_parameter', [{ param: 'market_id', value: String(unique.length), message: `at most ${MAX_QUOTE_MARKETS} unique market_id values per stream; got ${unique.length}` }]);
  }
  const ids: string[] = [];
  for (const raw of unique) {
    try {
      const plan = planResolution('market', raw, provider);
      if (plan.kind === 'direct') {
        ids.push(`${plan.provider}:${plan.provider === 'venue_7' ? venue7MarketKey(plan.nativeId) : plan.nativeId}`);
        continue;
      }
      const held = plan.candidates.filter((p) => hub.resolve(`${p}:${plan.nativeId}`) !== undefined);
      if (held.length === 1) ids.push(`${held[0]}:${plan.nativeId}`);
      else {
        const forms = plan.candidates.map((p) => `${p}:${plan.nativeId}`).join(' or ');
        items.push({
          param: 'market_id',
          value: raw,
          message: held.length
            ? `market_id ${quote(raw)} names a market on both ${held.join(' and ')}; send ${forms}`
            : `market_id ${quote(raw)} has the shape of a venue_2 and a venue_3 id and neither has been quoted here; send ${forms}`,
        });
      }
    } catch (e) {
      if (!isApiError(e)) throw e;
      // A provider contradicting a prefix is the provider's problem, as on market detail.
      if (e.options.param === 'provider') throw e;
      items.push({ param: 'market_id', value: raw, message: e.message });
    }
  }
  if (items.length) throw apiErrorFromItems('invalid_parameter', items);
  return ids;
}

export const stream: RouteHandler = async (ctx) => {
  const d = ctx.deps.stream;
  if (ctx.typed.channel === undefined) throw new ApiError('missing_parameter', 'send channel=sports, channel=quotes or channel=catalog: the channel to subscribe to', { param: 'channel' });
  const channel = ctx.typed.channel as 'sports' | 'quotes' | 'catalog';
  if (channel === 'catalog') {
    const items: ErrorItem[] = SPORTS_PARAMS.filter((p) => ctx.query[p] !== undefined).map((p) => ({
      param: p,
      value: ctx.query[p] as string,
      message: `${p} filters channel=sports; channel=catalog takes no filters, got ${p}=${quote(ctx.query[p])}`,
    }));
    items.push(...foreignParams(ctx.query, channel, QUOTES_PARAMS, 'channel=quotes'));
    if (items.length) throw apiErrorFromItems('invalid_parameter', items);
  }
  if (channel === 'sports') {
    const items = foreignParams(ctx.query, channel, QUOTES_PARAMS, 'channel=quotes');
    if (items.length) throw apiErrorFromItems('invalid_parameter', items);
  }
  if (channel === 'quotes') {
    const items = foreignParams(ctx.query, channel, SPORTS_PARAMS, 'channel=sports');
    if (items.length) throw apiErrorFromItems('invalid_parameter', items);
    if (ctx.query.market_id === undefined) throw new ApiError('missing_parameter', 'channel=quotes needs market_id: the markets to follow (repeat it, at most 100)', { param: 'market_id' });
  }
  const filter = channel === 'sports' ? filterOf(ctx.typed, ctx.query) : null;
  if (!d) throw new ApiError('service_unavailable', 'the push stream is not configured on this deployment');
  const catalog = d.catalog;
  if (channel === 'catalog' && !catalog) throw new ApiError('service_unavailable', 'the catalog channel is not configured on this deployment');
  const quotes = d.quotes ?? (channel === 'quotes' && d.startQuotes ? await d.startQuotes().catch(() => undefined) : undefined);
  if (channel === 'quotes' && !quotes) throw new ApiError('service_unavailable', 'the quotes channel is not configured on this deployment');
  const key = ctx.key!;
  const limit = STREAM_LIMITS[key.plan as PlanKey] ?? STREAM_LIMITS.free;
  if (channel === 'sports' && !(await d.hub.ready(d.readyMs))) throw new ApiError('service_unavailable', 'the stream is still reading the log after a start; retry shortly');
  if (channel === 'quotes' && !(await quotes!.ready(d.readyMs))) throw new ApiError('service_unavailable', 'the stream is still reading the log after a start; retry shortly');
  // After the hub caught up: the venue_2/venue_3 shapes are settled by what the log has quoted.
  const markets = channel === 'quotes' ? quoteMarketsOf(quotes!, ctx.query.market_id as string[], ctx.query.provider as string | undefined) : null;
  // The account's slots live in the key store every API process shares (Redis on the stack), so
  // the plan's limit holds across replicas; a slot is a lease this process renews while the stream
  // is open, so one a dead replica held frees itself (STREAM_SLOT_MS).
  const store = ctx.deps.auth!.store;
  const slot = randomUUID();
  const now = ctx.deps.clock();
  if (!(await store.acquireStreamSlot(key.accountId, slot, limit, now, now + STREAM_SLOT_MS))) {
    throw new ApiError('rate_limited', `the ${key.plan} plan allows ${limit} concurrent streams per account and all ${limit} are open: close one and retry`, {
      headers: { 'retry-after': '1' },
    });
  }
  /** Ends the open stream (set once it started). */
  let closeStream: (() => void) | null = null;
  let renewing = false;
  const renewal = setInterval(() => {
    if (renewing) return;
    renewing = true;
    const at = ctx.deps.clock();
    void (async () => {
      // A store that is away is tried again at the next renewal; the lease outlives two of them.
      if (await store.renewStreamSlot(key.accountId, slot, at, at + STREAM_SLOT_MS)) return;
      if (released) return;
      // The lease lapsed while the store was away (longer than two renewals): the stream streamed on
      // uncounted, over the plan's limit once another connection took the slot. It takes a slot
      // again if the plan has room; else it ends, and its client's reconnect is counted (429 while full).
      if (!(await store.acquireStreamSlot(key.accountId, slot, limit, at, at + STREAM_SLOT_MS))) closeStream?.();
    })()
      .catch(() => undefined)
      .finally(() => {
        renewing = false;
      });
  }, STREAM_SLOT_MS / 3);
  renewal.unref();
  let released = false;
  const release = () => {
    if (released) return;
    released = true;
    clearInterval(renewal);
    void store.releaseStreamSlot(key.accountId, slot).catch(() => undefined);
  };
  return {
    body: null,
    release,
    stream: (io: StreamIO) => {
      let conn: StreamConnection | CatalogConnection | QuotesConnection;
      const opts = { bufferBytes: d.bufferBytes, heartbeatMs: d.heartbeatMs, aheadMs: d.aheadMs, onClose: () => (release(), d.connections.delete(conn)) };
      const open = (sink: Sink) => (filter ? new StreamConnection(d.hub, filter, sink, opts) : markets ? new QuotesConnection(quotes!, markets, sink, opts) : new CatalogConnection(catalog!, sink, opts));
      if (io.kind === 'sse') {
        // No chunked encoding: the stream ends only with its connection, and each event is then one
        // socket write instead of three (size, data, CRLF) for every client.
        io.res.useChunkedEncodingByDefault = false;
        io.res.shouldKeepAlive = false;
        io.res.writeHead(200, io.headers);
        // Reconnect after 1 s (EventSource's default is 3 s); then the first event.
        io.res.write('retry: 1000\n\n');
        conn = open(sseSink(io.res, d.flushMs));
        closeStream = () => conn.close();
        io.req.socket.setNoDelay(true);
        io.res.on('close', () => conn.close());
        d.connections.add(conn);
        const last = io.req.headers['last-event-id'];
        conn.start(typeof last === 'string' && last !== '' ? last : undefined);
      } else {
        conn = open(wsSink(io.socket));
        closeStream = () => conn.close();
        io.socket.on('close', () => conn.close());
        d.connections.add(conn);
        conn.start(io.lastEventId);
      }
    },
  };
};
