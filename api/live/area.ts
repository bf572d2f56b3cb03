// Wiring of the live routes for bin/run.ts (market detail, event detail, spot prices, wallets).
// In: the venues' base URL (the in-process simulator's in the embedded default, VENUE_BASE_URL in
// the stack). Out: the dependencies the live routes read (`deps.live`) and stop(), which closes
// the keep-alive pool. Attach with:
//   const live = startLiveArea({ venueBaseUrl });
//   deps.live = live.deps;   ...   await live.stop();
import type { Config } from '../../lib/config.ts';
import type { VenueEndpoints } from '../../pipelines/venues/client/endpoints.ts';
import { createLiveDeps, type LiveDeps } from './io.ts';

export interface LiveArea {
  deps: LiveDeps;
  stop(): Promise<void>;
}

export function startLiveArea(o: { config?: Pick<Config, 'VENUE_BASE_URL'>; venueBaseUrl?: string; endpoints?: VenueEndpoints }): LiveArea {
  const base = o.venueBaseUrl ?? o.config?.VENUE_BASE_URL;
  if (!base && !o.endpoints?.allOwn) throw new Error('live routes need the venues base URL (the simulator address or VENUE_BASE_URL)');
  const deps = createLiveDeps(base ?? '', o.endpoints);
  return { deps, stop: () => deps.venues.close() };
}
