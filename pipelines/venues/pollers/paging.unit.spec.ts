// A crawl over a listing that moves while it is walked (markets close below the current position,
// new ones open at the end) still reads every market that stayed listed the whole time: offset
// walks overlap their pages (PAGE_OVERLAP), page-numbered walks go from the last page to the first.
// Property over random listings and closings, against each offset- or page-numbered venue's step.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { adapterFor } from '../adapters/index.ts';
import { PAGE_OVERLAP, type PageRequest } from '../adapters/listing.ts';
import type { Provider } from '../../../lib/vocabulary.ts';

/** The venue's answer for one request over the listing as it is now (the venue's own shapes). */
function serve(provider: Provider, req: PageRequest, listing: number[]): unknown {
  const q = req.query;
  const slice = (from: number, n: number) => listing.slice(from, from + n);
  switch (provider) {
    case 'venue_2':
      return slice(Number(q.offset), Number(q.limit)).map((id) => ({ id: String(id) }));
    case 'venue_5':
      return { questions: slice(Number(q.skip), Number(q.take)).map((id) => ({ question_id: String(id) })), total: listing.length };
    case 'venue_7':
      return { events: slice(Number(q.offset), Number(q.count)).map((id) => ({ event_id: String(id) })), total: listing.length };
    case 'venue_3': {
      const per = Number(q.per_page);
      const page = Number(q.page);
      return { data: slice((page - 1) * per, per).map((id) => ({ id: String(id) })), meta: { page, per_page: per, total: listing.length, total_pages: Math.ceil(listing.length / per) } };
    }
    default:
      throw new Error(provider);
  }
}

/** Walks the venue's listing step; between two requests `move` changes the listing. */
function crawl(provider: Provider, listing: number[], move: (listing: number[], page: number) => number[]): { read: Set<string>; requests: number; listing: number[] } {
  const [step] = adapterFor(provider).listingSteps();
  const read = new Set<string>();
  let req: PageRequest | null = step!.first();
  let requests = 0;
  while (req && requests < 10_000) {
    const { records, next } = step!.parse(serve(provider, req, listing), req);
    for (const r of records) read.add(r.nativeId);
    requests++;
    listing = move(listing, requests);
    req = next;
  }
  return { read, requests, listing };
}

describe('listing walks over a moving listing', () => {
  for (const provider of ['venue_2', 'venue_3', 'venue_5', 'venue_7'] as Provider[]) {
    it(`${provider}: every market listed throughout the crawl is read`, () => {
      fc.assert(
        fc.property(fc.integer({ min: 0, max: 2_500 }), fc.array(fc.integer({ min: 0, max: PAGE_OVERLAP - 1 }), { minLength: 1, maxLength: 40 }), fc.integer({ min: 0, max: 30 }), (size, closings, opened) => {
          const start = Array.from({ length: size }, (_, i) => i);
          let nextId = size;
          const closed = new Set<number>();
          // Between pages: some markets close (anywhere below the end: the oldest most often), new ones open at the end.
          const { read } = crawl(provider, start, (listing, page) => {
            const k = closings[page % closings.length]!;
            const out = [...listing];
            for (let j = 0; j < k && out.length; j++) {
              const at = j % 2 === 0 ? 0 : Math.floor(out.length / 2);
              closed.add(out.splice(at, 1)[0]!);
            }
            for (let j = 0; j < opened % 5; j++) out.push(nextId++);
            return out;
          });
          const missed = start.filter((id) => !closed.has(id) && !read.has(String(id)));
          expect(missed).toEqual([]);
        }),
        { numRuns: 60 },
      );
    });
  }

  it('a listing that stands still is read in full, each market once per crawl, and the walk ends', () => {
    for (const provider of ['venue_2', 'venue_3', 'venue_5', 'venue_7'] as Provider[]) {
      const listing = Array.from({ length: 1234 }, (_, i) => i);
      const { read, requests } = crawl(provider, listing, (l) => l);
      expect(read.size).toBe(1234);
      expect(requests).toBeLessThan(30);
    }
  });
});
