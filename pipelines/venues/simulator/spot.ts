// Simulated spot crypto price venue, mounted by the simulator under the `spot` prefix.
// In: the simulator's seed and clock. Out: two native endpoints, in the venue's own wire format
// (upper-case pairs, prices as decimal strings, [time, price] tuples), one price per second:
//   GET /api/v3/ticker/price?symbol=BTCUSDT                      -> {symbol, price, time}
//   GET /api/v3/ticks?symbol=BTCUSDT&startTime&endTime&limit     -> {symbol, ticks: [[t, "p"], ...]}
//       newest first, at most `limit` (1..1000) seconds in [startTime, endTime]; endTime defaults
//       to the current second.
// Unknown pair: 404 {code: -1121, msg}. Bad parameter: 400 {code: -1100, msg}.
// Faults (the spot venue is not one of the nine, so it has its own switch, same kinds as
// /__admin/faults): POST /spot/__admin/fault {kind: down|refuse|slow|rate_limit|malformed|reject|none,
// delay_ms, retry_after_s}.
// Prices are a pure function of (seed, pair, second), so any second can be read in O(1) and the
// same second always has the same price.
import type { FastifyPluginAsync } from 'fastify';
import { createHash } from 'node:crypto';

/** Price history starts here; no second before it has a price. */
export const SPOT_HISTORY_START_MS = Date.UTC(2024, 0, 1);

const BASE: Record<string, { price: number; decimals: number }> = {
  BTCUSDT: { price: 97_000, decimals: 2 },
  ETHUSDT: { price: 3_400, decimals: 2 },
  SOLUSDT: { price: 240, decimals: 3 },
  XRPUSDT: { price: 1.1, decimals: 5 },
  DOGEUSDT: { price: 0.38, decimals: 5 },
  BNBUSDT: { price: 620, decimals: 2 },
  BTCUSD: { price: 97_050, decimals: 2 },
  ETHUSD: { price: 3_402, decimals: 2 },
};
export const SPOT_SYMBOLS = Object.keys(BASE);

function unitNoise(seed: number, key: string): number {
  const h = createHash('sha1').update(`${seed}:${key}`).digest();
  return h.readUInt32BE(0) / 0xffffffff;
}

/** The price of `symbol` at second `sec` (Unix seconds). */
export function spotPrice(seed: number, symbol: string, sec: number): number {
  const b = BASE[symbol];
  const phase = unitNoise(seed, symbol) * 2 * Math.PI;
  const wave = 0.06 * Math.sin((2 * Math.PI * sec) / 86_400 + phase) + 0.012 * Math.sin((2 * Math.PI * sec) / 3_600 + 2 * phase);
  const jitter = 0.0008 * (unitNoise(seed, `${symbol}:${sec}`) - 0.5);
  const f = 10 ** b.decimals;
  return Math.round(b.price * Math.exp(wave + jitter) * f) / f;
}

type Clock = (() => number) | { now(): number };
const nowOf = (clock: Clock | undefined): number =>
  typeof clock === 'function' ? clock() : clock && typeof clock.now === 'function' ? clock.now() : Date.now();

interface Opts {
  seed?: number;
  clock?: Clock;
}

interface SpotFault {
  kind: 'down' | 'refuse' | 'slow' | 'rate_limit' | 'malformed' | 'reject';
  delay_ms?: number;
  retry_after_s?: number;
}

const spot: FastifyPluginAsync<Opts> = async (app, opts) => {
  const seed = opts.seed ?? 42;
  let fault: SpotFault | null = null;
  app.post('/__admin/fault', async (req, reply) => {
    const b = (req.body ?? {}) as Omit<Partial<SpotFault>, 'kind'> & { kind?: string };
    if (b.kind === 'none') fault = null;
    else if (['down', 'refuse', 'slow', 'rate_limit', 'malformed', 'reject'].includes(String(b.kind))) fault = b as SpotFault;
    else return reply.code(400).send({ error: `unknown fault kind ${JSON.stringify(b.kind)}` });
    return { fault };
  });
  app.addHook('onRequest', async (req, reply) => {
    if (!fault || req.url.includes('/__admin/')) return;
    switch (fault.kind) {
      case 'down':
        return reply.code(503).type('text/plain').send('Service Unavailable');
      case 'refuse':
        req.raw.socket.destroy();
        return reply.hijack();
      case 'slow':
        await new Promise((r) => setTimeout(r, fault?.delay_ms ?? 12_000));
        return;
      case 'rate_limit':
        if (fault.retry_after_s !== undefined) reply.header('Retry-After', String(fault.retry_after_s));
        return reply.code(429).send({ code: -1003, msg: 'Too many requests.' });
      case 'malformed':
        return reply.code(200).type('application/json').send('{"symbol":"BTC');
      case 'reject':
        return reply.code(400).send({ code: -1100, msg: 'Illegal characters found in a parameter.' });
    }
  });
  const fmt = (symbol: string, sec: number) => spotPrice(seed, symbol, sec).toFixed(BASE[symbol].decimals);

  const symbolOf = (raw: unknown): string | null => {
    const s = typeof raw === 'string' ? raw.toUpperCase() : '';
    return BASE[s] ? s : null;
  };

  app.get('/api/v3/ticker/price', async (req, reply) => {
    const q = req.query as Record<string, string | undefined>;
    const symbol = symbolOf(q.symbol);
    if (!symbol) return reply.code(404).send({ code: -1121, msg: 'Invalid symbol.' });
    const sec = Math.floor(nowOf(opts.clock) / 1000);
    return { symbol, price: fmt(symbol, sec), time: sec * 1000 };
  });

  app.get('/api/v3/ticks', async (req, reply) => {
    const q = req.query as Record<string, string | undefined>;
    const symbol = symbolOf(q.symbol);
    if (!symbol) return reply.code(404).send({ code: -1121, msg: 'Invalid symbol.' });
    const int = (v: string | undefined) => (v === undefined ? undefined : /^\d+$/.test(v) ? Number(v) : NaN);
    const start = int(q.startTime) ?? 0;
    const nowSec = Math.floor(nowOf(opts.clock) / 1000);
    const end = int(q.endTime) ?? nowSec * 1000;
    const limit = int(q.limit) ?? 500;
    if ([start, end, limit].some((n) => Number.isNaN(n)) || limit < 1 || limit > 1000) {
      return reply.code(400).send({ code: -1100, msg: 'Illegal characters found in a parameter.' });
    }
    if (start > end) return reply.code(400).send({ code: -1100, msg: 'startTime is after endTime.' });
    // Seconds (whole multiples of 1000 ms) in [max(start, history start), min(end, now)], newest first.
    const hi = Math.min(Math.floor(end / 1000), nowSec);
    const lo = Math.max(Math.ceil(start / 1000), SPOT_HISTORY_START_MS / 1000);
    const ticks: [number, string][] = [];
    for (let sec = hi; sec >= lo && ticks.length < limit; sec--) ticks.push([sec * 1000, fmt(symbol, sec)]);
    return { symbol, ticks };
  });
};

export default spot;
