// The nine venue modules, by provider token.
import type { VenueId } from '../core.ts';
import type { VenueModule } from '../store.ts';
import { venue1 } from './venue1.ts';
import { venue2 } from './venue2.ts';
import { venue3 } from './venue3.ts';
import { venue4 } from './venue4.ts';
import { venue5 } from './venue5.ts';
import { venue6 } from './venue6.ts';
import { venue7 } from './venue7.ts';
import { venue8 } from './venue8.ts';
import { venue9 } from './venue9.ts';

export const VENUE_MODULES: Record<VenueId, VenueModule> = {
  venue_1: venue1,
  venue_2: venue2,
  venue_3: venue3,
  venue_4: venue4,
  venue_5: venue5,
  venue_6: venue6,
  venue_7: venue7,
  venue_8: venue8,
  venue_9: venue9,
};
