// Every record the listing crawls read from a simulator, as the pollers would publish them (one
// read time for all): the input the quotes benchmarks replay. Read page by page through each venue's
// own adapter, so what the benchmarks hold is what the service holds.
import { PROVIDERS, type RawRecord } from '../pipelines/topics.ts';
import { adapterFor } from '../pipelines/venues/adapters/index.ts';
import { createClock } from '../pipelines/venues/simulator/core.ts';
import { startSimulator, type Simulator } from '../pipelines/venues/simulator/server.ts';

async function readListing(sim: Simulator, at: number): Promise<RawRecord[]> {
  const listed: RawRecord[] = [];
  for (const venue of PROVIDERS) {
    for (const step of adapterFor(venue).listingSteps()) {
      let req: ReturnType<typeof step.first> | null = step.first();
      while (req) {
        const u = new URL(sim.baseUrl + req.path);
        for (const [k, v] of Object.entries(req.query)) u.searchParams.set(k, String(v));
        const page = step.parse(await (await fetch(u)).json(), req);
        for (const r of page.records) listed.push({ venue, record_type: r.recordType, native_id: r.nativeId, read_started_at: at, payload: JSON.stringify(r.payload), read_id: null, source_url: null });
        req = page.next;
      }
    }
  }
  return listed;
}

export async function listedRecords(o: { seed: number; scale: number }): Promise<RawRecord[]> {
  const sim = await startSimulator(o);
  try {
    return await readListing(sim, Date.now());
  } finally {
    await sim.close();
  }
}

/**
 * The same world's listing read `reads` times, its clock moved `stepMs` between reads (frozen
 * meanwhile): successive crawls as the pollers would read them, the prices and states moved on by
 * the simulator's own dynamics in between.
 */
export async function successiveListings(o: { seed: number; scale: number; reads: number; stepMs: number }): Promise<RawRecord[][]> {
  const clock = createClock(Date.now(), { frozen: true });
  const sim = await startSimulator({ seed: o.seed, scale: o.scale, clock });
  try {
    const out: RawRecord[][] = [];
    for (let i = 0; i < o.reads; i++) {
      if (i) clock.advance(o.stepMs);
      out.push(await readListing(sim, clock.now()));
    }
    return out;
  } finally {
    await sim.close();
  }
}

/**
 * Several listing crawls of one simulator, its clock advanced `everyMs` between them, published as
 * the pollers publish (pipelines/venues/pollers/changes.ts): the first crawl whole, each later one
 * only the records whose payload differs byte for byte from that record's last published one. Each
 * record carries the simulator's time of its crawl as read_started_at. At scale 1 and 10 s apart about
 * half of a crawl's 15,000 records change, and nine in ten of those change a quote.
 */
export async function polledRecords(o: { seed: number; scale: number; crawls: number; everyMs: number }): Promise<RawRecord[]> {
  const sim = await startSimulator(o);
  try {
    const published: RawRecord[] = [];
    const last = new Map<string, string>();
    for (let c = 0; c < o.crawls; c++) {
      if (c > 0) sim.clock.advance(o.everyMs);
      for (const r of await readListing(sim, sim.clock.now())) {
        const key = `${r.venue}\u0000${r.record_type}\u0000${r.native_id}`;
        if (last.get(key) === r.payload) continue;
        last.set(key, r.payload);
        published.push(r);
      }
    }
    return published;
  } finally {
    await sim.close();
  }
}
