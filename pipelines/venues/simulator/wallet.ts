// Simulated marketplace wallets (profiles and positions of venue_2), mounted by the simulator on
// the marketplace venue. In: seed (and venue_2's condition ids from the world when it exposes
// them). Out: three native endpoints in the venue's own wire format (camelCase, proxyWallet):
//   GET /public-profile?address=0x..    -> {proxyWallet, name, pseudonym, profileImage, bio, createdAt}
//                                          404 for an address with no profile (signer EOAs included:
//                                          the venue only knows proxies)
//   GET /profiles/search?q=text         -> {profiles: [...]} fuzzy: case-insensitive substring of
//                                          name or pseudonym, at most 10, exact matches not favoured
//   GET /positions?user=0x..&limit&offset -> [{proxyWallet, conditionId, asset, outcome,
//                                          outcomeIndex, size, avgPrice, curPrice, title}], size
//                                          descending; [] for an unknown address; limit 1..500
// Wallets are derived from the seed: signer EOA i, its CREATE2 proxy (pipelines/venues/client/
// proxy.ts), a username for most, and 0..130 positions on venue_2 markets (read once from the
// venue's own listing).
import type { FastifyPluginAsync } from 'fastify';
import { createHash } from 'node:crypto';
import { proxyFor } from '../client/proxy.ts';

export interface SimWallet {
  signer: string;
  proxy: string;
  name: string;
  pseudonym: string;
  positions: SimPosition[];
}
export interface SimPosition {
  conditionId: string;
  asset: string;
  outcome: string;
  outcomeIndex: number;
  size: number;
  avgPrice: number;
  curPrice: number;
  title: string;
}

const ADJ = ['Lucky', 'Quiet', 'Bold', 'Sharp', 'Lazy', 'Brave', 'Calm', 'Wild', 'Swift', 'Grand'];
const NOUN = ['Whale', 'Otter', 'Falcon', 'Badger', 'Trader', 'Oracle', 'Panda', 'Comet', 'Tiger', 'Raven'];

const hex = (seed: number, key: string, bytes: number): string =>
  createHash('sha256').update(`${seed}:${key}`).digest('hex').slice(0, bytes * 2);
const unit = (seed: number, key: string): number => parseInt(hex(seed, key, 4), 16) / 0xffffffff;

interface MarketRef {
  conditionId: string;
  title: string;
  outcomes: [string, string];
}

/** venue_2 markets from the world when it exposes them, else generated condition ids. */
function marketsFrom(world: unknown, seed: number): MarketRef[] {
  const out: MarketRef[] = [];
  const w = world as { venue_2?: { markets?: unknown } } | undefined;
  const raw = w?.venue_2?.markets;
  const list: unknown[] = Array.isArray(raw) ? raw : raw instanceof Map ? [...raw.values()] : [];
  for (const m of list) {
    const r = m as Record<string, unknown>;
    const cid = r.conditionId ?? r.condition_id;
    if (typeof cid === 'string' && /^0x[0-9a-f]{64}$/i.test(cid)) {
      let outs: unknown = r.outcomes;
      if (typeof outs === 'string') {
        try {
          outs = JSON.parse(outs);
        } catch {
          outs = undefined;
        }
      }
      const o = Array.isArray(outs) && outs.length === 2 ? (outs as [string, string]) : (['Yes', 'No'] as [string, string]);
      out.push({ conditionId: cid.toLowerCase(), title: String(r.question ?? r.title ?? 'Market'), outcomes: o });
    }
    if (out.length >= 2000) break;
  }
  if (out.length > 0) return out;
  for (let i = 0; i < 400; i++) {
    out.push({ conditionId: '0x' + hex(seed, `cond:${i}`, 32), title: `Simulated market ${i}`, outcomes: ['Yes', 'No'] });
  }
  return out;
}

export function buildWallets(seed: number, world?: unknown, count = 300): SimWallet[] {
  const markets = marketsFrom(world, seed);
  const wallets: SimWallet[] = [];
  for (let i = 0; i < count; i++) {
    const signer = '0x' + hex(seed, `signer:${i}`, 20);
    const proxy = proxyFor(signer);
    // Names repeat word stems on purpose so that a search finds fuzzy neighbours ("LuckyWhale",
    // "LuckyWhale7"); every tenth wallet has no username, only a pseudonym.
    const stem = `${ADJ[i % ADJ.length]}${NOUN[Math.floor(i / ADJ.length) % NOUN.length]}`;
    const name = i % 10 === 9 ? '' : i < 100 ? stem : `${stem}${i}`;
    const pseudonym = `${ADJ[(i * 7) % ADJ.length]}-${NOUN[(i * 3) % NOUN.length]}-${hex(seed, `ps:${i}`, 2)}`;
    // Wallet 0 holds more than one full page so deep paging is exercised.
    const n = i === 0 ? 130 : Math.floor(unit(seed, `npos:${i}`) * 60);
    const positions: SimPosition[] = [];
    const used = new Set<number>();
    for (let k = 0; k < n && used.size < markets.length; k++) {
      let m = Math.floor(unit(seed, `pos:${i}:${k}`) * markets.length);
      while (used.has(m)) m = (m + 1) % markets.length;
      used.add(m);
      const mk = markets[m];
      const outcomeIndex = unit(seed, `side:${i}:${k}`) < 0.5 ? 0 : 1;
      positions.push({
        conditionId: mk.conditionId,
        asset: BigInt('0x' + hex(seed, `asset:${mk.conditionId}:${outcomeIndex}`, 24)).toString(),
        outcome: mk.outcomes[outcomeIndex],
        outcomeIndex,
        size: Math.round(unit(seed, `size:${i}:${k}`) * 5000 * 100) / 100 + 1,
        avgPrice: Math.round(unit(seed, `avg:${i}:${k}`) * 1000) / 1000,
        curPrice: Math.round(unit(seed, `cur:${i}:${k}`) * 1000) / 1000,
        title: mk.title,
      });
    }
    positions.sort((a, b) => b.size - a.size || a.conditionId.localeCompare(b.conditionId));
    wallets.push({ signer, proxy, name, pseudonym, positions });
  }
  return wallets;
}

interface Opts {
  seed?: number;
  world?: unknown;
}

const wallet: FastifyPluginAsync<Opts> = async (app, opts) => {
  const seed = opts.seed ?? 42;
  let wallets: SimWallet[] | undefined;
  let byProxy: Map<string, SimWallet> | undefined;
  // Built on first use from venue_2's own market listing (read through the venue's public API, so
  // positions name real venue_2 condition ids); generated ids only if that listing cannot be read.
  const all = async () => {
    if (!wallets) {
      let markets: unknown = opts.world;
      try {
        const res = await app.inject({ method: 'GET', url: '/venue_2/markets?closed=false&limit=500&offset=0' });
        if (res.statusCode === 200) markets = { venue_2: { markets: res.json() as unknown } };
      } catch {
        /* fall back below */
      }
      wallets = buildWallets(seed, markets);
      byProxy = new Map(wallets.map((w) => [w.proxy, w]));
    }
    return { wallets, byProxy: byProxy! };
  };
  const profileOf = (w: SimWallet) => ({
    proxyWallet: w.proxy,
    name: w.name || null,
    pseudonym: w.pseudonym,
    profileImage: `https://images.marketplace.example/profile/${w.proxy}.png`,
    bio: '',
    createdAt: new Date(Date.UTC(2024, 0, 1) + (parseInt(w.proxy.slice(2, 8), 16) % 600) * 86_400_000).toISOString(),
  });
  const addr = (v: unknown) => (typeof v === 'string' && /^0x[0-9a-fA-F]{40}$/.test(v) ? v.toLowerCase() : null);

  app.get('/public-profile', async (req, reply) => {
    const a = addr((req.query as Record<string, unknown>).address);
    if (!a) return reply.code(400).send({ error: 'invalid address' });
    const w = (await all()).byProxy.get(a);
    if (!w) return reply.code(404).send({ error: 'profile not found' });
    return profileOf(w);
  });

  app.get('/profiles/search', async (req, reply) => {
    const q = (req.query as Record<string, unknown>).q;
    if (typeof q !== 'string' || q.trim() === '') return reply.code(400).send({ error: 'q is required' });
    const needle = q.trim().toLowerCase();
    const hits = (await all())
      .wallets.filter((w) => w.name.toLowerCase().includes(needle) || w.pseudonym.toLowerCase().includes(needle))
      .slice(0, 10);
    return { profiles: hits.map(profileOf) };
  });

  app.get('/positions', async (req, reply) => {
    const q = req.query as Record<string, string | undefined>;
    const a = addr(q.user);
    if (!a) return reply.code(400).send({ error: 'invalid user' });
    const limit = q.limit === undefined ? 100 : Number(q.limit);
    const offset = q.offset === undefined ? 0 : Number(q.offset);
    if (!Number.isInteger(limit) || limit < 1 || limit > 500 || !Number.isInteger(offset) || offset < 0) {
      return reply.code(400).send({ error: 'invalid limit or offset' });
    }
    const w = (await all()).byProxy.get(a);
    if (!w) return [];
    return w.positions.slice(offset, offset + limit).map((p) => ({ proxyWallet: w.proxy, ...p }));
  });
};

export default wallet;
