// Procedural non-sports catalog: market i of a venue is a pure function of (seed, venue, i), so a
// listing page costs O(page) and 1,000,000 open markets cost no memory. In: seed, venue, index,
// clock time. Out: an abstract market (topic, title, prices, volumes) that each venue renders in
// its own wire format, and the open window (which indices are open at time t).
import { type VenueId, h32, pick, unit } from './core.ts';

export type Topic =
  | 'politics'
  | 'crypto'
  | 'finance'
  | 'economics'
  | 'weather'
  | 'culture'
  | 'technology'
  | 'entertainment'
  | 'other';
export const TOPICS: readonly Topic[] = [
  'politics', 'crypto', 'finance', 'economics', 'weather', 'culture', 'technology', 'entertainment', 'other',
];

/** Share of each venue in the procedural catalog (sums to 1). */
export const VENUE_SHARE: Record<VenueId, number> = {
  venue_1: 0.2, venue_2: 0.2, venue_3: 0.05, venue_4: 0.05, venue_5: 0.1,
  venue_6: 0.1, venue_7: 0.05, venue_8: 0.15, venue_9: 0.1,
};
/** Open procedural markets across all venues at scale 1; SIM_SCALE=100 gives 1,000,000. */
export const BASE_OPEN = 10_000;
/** One market closes and one opens per venue every this many ms ("markets open and close"). */
export const TURNOVER_MS = 60_000;

/** Options (markets) per group on venues that group markets (events, questions, parents). */
export const GROUP_SIZE: Record<VenueId, number> = {
  venue_1: 3, venue_2: 1, venue_3: 1, venue_4: 1, venue_5: 3, venue_6: 3, venue_7: 1, venue_8: 1, venue_9: 3,
};

export interface ProcMarket {
  i: number;
  venue: VenueId;
  /** undefined: the venue published no tag for it. */
  topic: Topic;
  tagged: boolean;
  group: number;
  option: number;
  groupTitle: string;
  title: string;
  optionLabel: string;
  fair: number;
  volume: number;
  volume24h: number;
  liquidity: number;
  openInterest: number;
  createdAt: number;
  closeAt: number;
}

export interface ProcSpace {
  venue: VenueId;
  seed: number;
  /** Open markets at any time. */
  count: number;
  /** Time the window starts moving. */
  epoch: number;
}

export function procSpace(seed: number, venue: VenueId, scale: number, epoch: number): ProcSpace {
  return { venue, seed, count: Math.round(BASE_OPEN * scale * VENUE_SHARE[venue]), epoch };
}
/** First open index at time t: indices below it have closed, [lo, lo+count) are open. */
export function openLo(sp: ProcSpace, t: number): number {
  return Math.max(0, Math.floor((t - sp.epoch) / TURNOVER_MS));
}
export type ProcStatus = 'open' | 'closed' | 'settled' | 'unlisted';
export function procStatus(sp: ProcSpace, i: number, t: number): ProcStatus {
  const lo = openLo(sp, t);
  if (i >= lo + sp.count) return 'unlisted';
  if (i >= lo) return 'open';
  return i >= lo - 50 ? 'closed' : 'settled';
}

const TOPIC_WEIGHTS: [Topic, number][] = [
  ['politics', 0.18], ['crypto', 0.16], ['finance', 0.12], ['economics', 0.1], ['weather', 0.08],
  ['culture', 0.08], ['technology', 0.08], ['entertainment', 0.1], ['other', 0.1],
];

const PEOPLE = ['Alex Rivera', 'Jordan Lee', 'Sam Patel', 'Morgan Chen', 'Casey Brooks', 'Taylor Nguyen', 'Riley Okafor', 'Jamie Novak'];
const STATES = ['Ohio', 'Georgia', 'Arizona', 'Michigan', 'Nevada', 'Pennsylvania', 'Wisconsin', 'Texas', 'Florida'];
const COINS: [string, number][] = [['BTC', 98000], ['ETH', 3400], ['SOL', 190], ['XRP', 2.3], ['DOGE', 0.38]];
const STOCKS: [string, number][] = [['NVDA', 180], ['AAPL', 230], ['TSLA', 410], ['MSFT', 470], ['S&P 500', 6500], ['Nasdaq 100', 23000]];
const CITIES = ['New York', 'Chicago', 'Miami', 'Los Angeles', 'Denver', 'Austin', 'Seattle', 'Boston'];
const FILMS = ['The Last Orbit', 'Paper Crowns', 'Midnight Harbor', 'Glass Rivers', 'Northbound', 'Echo Valley'];
const AI = ['GPT-6', 'Gemini 4', 'Claude 6', 'Llama 5', 'Grok 5'];
const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

function groupTitle(seed: number, topic: Topic, g: number): { title: string; options: (j: number) => [string, string] } {
  const k = (...p: (string | number)[]) => h32(seed, topic, g, ...p);
  const month = MONTHS[k('m') % 12];
  const year = 2026 + (k('y') % 3);
  switch (topic) {
    case 'politics': {
      const st = STATES[k('s') % STATES.length];
      return {
        title: `${st} ${pick(['Senate', 'Governor', 'House District ' + (1 + (k('d') % 14))], seed, g, 'office')} race ${year}: who wins?`,
        options: (j) => [`Will ${PEOPLE[(k('p') + j) % PEOPLE.length]} win the ${st} race in ${year}?`, PEOPLE[(k('p') + j) % PEOPLE.length]],
      };
    }
    case 'crypto': {
      const [c, px] = COINS[k('c') % COINS.length];
      const base = px * (0.8 + (k('b') % 40) / 100);
      const day = 1 + (k('d') % 28);
      return {
        title: `${c} price on ${month} ${day}, ${year}`,
        options: (j) => {
          const strike = +(base * (1 + j * 0.05)).toPrecision(4);
          return [`Will ${c} be above $${strike.toLocaleString('en-US')} on ${month} ${day}, ${year}?`, `Above $${strike.toLocaleString('en-US')}`];
        },
      };
    }
    case 'finance': {
      const [s, px] = STOCKS[k('s') % STOCKS.length];
      return {
        title: `${s} close at end of ${month} ${year}`,
        options: (j) => {
          const strike = Math.round(px * (0.9 + j * 0.05 + (k('b') % 10) / 100));
          return [`Will ${s} close above ${strike} at the end of ${month} ${year}?`, `Above ${strike}`];
        },
      };
    }
    case 'economics': {
      const what = pick(['Fed decision', 'CPI YoY', 'Unemployment rate', 'GDP growth Q' + (1 + (k('q') % 4))], seed, g, 'eco');
      return {
        title: `${what} — ${month} ${year}`,
        options: (j) => [`${what} in ${month} ${year}: ${['cut 25bp', 'no change', 'hike 25bp', 'above 3.0%', 'below 2.5%'][(k('o') + j) % 5]}?`, ['cut 25bp', 'no change', 'hike 25bp', 'above 3.0%', 'below 2.5%'][(k('o') + j) % 5]],
      };
    }
    case 'weather': {
      const c = CITIES[k('c') % CITIES.length];
      const day = 1 + (k('d') % 28);
      return {
        title: `Highest temperature in ${c} on ${month} ${day}`,
        options: (j) => {
          const deg = 40 + (k('t') % 50) + 3 * j;
          return [`Will the high in ${c} be ${deg}°F or above on ${month} ${day}?`, `${deg}°F or above`];
        },
      };
    }
    case 'culture': {
      const p = PEOPLE[k('p') % PEOPLE.length];
      return {
        title: `${p}: announcements by ${month} ${year}`,
        options: (j) => [[`Will ${p} announce an engagement by ${month} ${year}?`, `Will ${p} post on social media about a tour by ${month} ${year}?`, `Will ${p} top the streaming charts in ${month} ${year}?`][j % 3], ['Engagement', 'Tour', 'Chart-topper'][j % 3]],
      };
    }
    case 'technology': {
      const m = AI[k('a') % AI.length];
      return {
        title: `${m} release timing`,
        options: (j) => [`Will ${m} be released before ${MONTHS[(k('m') + j) % 12]} ${year}?`, `Before ${MONTHS[(k('m') + j) % 12]}`],
      };
    }
    case 'entertainment': {
      const f = FILMS[k('f') % FILMS.length];
      return {
        title: `${f}: opening weekend box office`,
        options: (j) => {
          const m = 40 + 20 * j + (k('b') % 30);
          return [`Will "${f}" gross more than $${m}M on its opening weekend?`, `Over $${m}M`];
        },
      };
    }
    default: {
      const n = 10 + (k('n') % 90);
      return {
        title: `Novelty #${g}: events by end of ${year}`,
        options: (j) => [[`Will a new world record in marathon be set by ${year}?`, `Will more than ${n} meteors be reported in one night in ${month} ${year}?`, `Will a hot dog eating record exceed ${n} by ${year}?`][j % 3], ['Record', 'Meteors', 'Hot dogs'][j % 3]],
      };
    }
  }
}

/** Market i of a venue. Pure: same (seed, venue, i) gives the same market. */
export function procMarket(sp: ProcSpace, i: number): ProcMarket {
  const { seed, venue } = sp;
  const G = GROUP_SIZE[venue];
  const group = Math.floor(i / G);
  const option = i % G;
  let x = unit(seed, venue, 'topic', group);
  let topic: Topic = 'other';
  for (const [tp, w] of TOPIC_WEIGHTS) {
    if (x < w) {
      topic = tp;
      break;
    }
    x -= w;
  }
  const tagged = unit(seed, venue, 'tagged', group) >= 0.05;
  const gt = groupTitle(seed, topic, h32(seed, venue, 'g', group) % 100000);
  const [title, optionLabel] = gt.options(option);
  const u = (...p: (string | number)[]) => unit(seed, venue, i, ...p);
  const fair = 0.05 + 0.9 * u('fair');
  const volume = Math.round(u('vol') * u('vol2') * 2_000_000) / 100;
  return {
    i,
    venue,
    topic,
    tagged,
    group,
    option,
    groupTitle: gt.title,
    title: G === 1 ? title : title,
    optionLabel,
    fair,
    volume,
    volume24h: Math.round(volume * u('v24') * 0.2 * 100) / 100,
    liquidity: Math.round(u('liq') * 50_000 * 100) / 100,
    openInterest: Math.round(volume * 0.4),
    createdAt: sp.epoch - 86400e3 * (1 + (h32(seed, venue, 'age', i) % 60)) + (i % 1000) * 1000,
    closeAt: sp.epoch + 86400e3 * (30 + (h32(seed, venue, 'close', i) % 300)),
  };
}

/** Quote drift for procedural markets: the book moves once a minute. */
export function procFairAt(sp: ProcSpace, m: ProcMarket, t: number): number {
  const d = (unit(sp.seed, sp.venue, m.i, 'drift', Math.floor(t / 60_000)) - 0.5) * 0.03;
  return Math.min(0.98, Math.max(0.02, m.fair + d));
}
