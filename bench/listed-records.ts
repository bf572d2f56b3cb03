// Every record the listing crawls read from a simulator, as the pollers would publish them (one
// read time for all): the input the quotes benchmarks replay. Read page by page through each venue's
// own adapter, so what the benchmarks hold is what the service holds.
import { PROVIDERS, type RawRecord } from '../pipelines/topics.ts';
import { adapterFor } from '../pipelines/venues/adapters/index.ts';
import { startSimulator } from '../pipelines/venues/simulator/server.ts';

export async function listedRecords(o: { seed: number; scale: number }): Promise<RawRecord[]> {
  const sim = await startSimulator(o);
  try {
    const listed: RawRecord[] = [];
    const at = Date.now();
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
  } finally {
    await sim.close();
  }
}
