// The nine venue modules, by provider token.
import type { VenueId } from '../core.ts';
import type { VenueModule } from '../store.ts';
import { venue1 } from './venue1.ts';

export const VENUE_MODULES: Partial<Record<VenueId, VenueModule>> = {
  venue_1: venue1,
};
