// Eastern-calendar helpers ("scheduled_date: the game's calendar day in America/New_York").
// In: Unix ms or YYYY-MM-DD strings. Out: Eastern dates and the instants that bound them. Pure.

const fmt = new Intl.DateTimeFormat('en-CA', {
  timeZone: 'America/New_York',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
});

const cache = new Map<number, string>();

/** The America/New_York calendar day (YYYY-MM-DD) of an instant. */
export function easternDate(ms: number): string {
  // Cache per UTC quarter hour: the Eastern day changes only on whole hours.
  const bucket = Math.floor(ms / 900_000);
  const hit = cache.get(bucket);
  if (hit !== undefined) return hit;
  const d = fmt.format(new Date(bucket * 900_000));
  if (cache.size > 50_000) cache.clear();
  cache.set(bucket, d);
  return d;
}

export function utcDate(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/** A real calendar date in YYYY-MM-DD form (2026-02-30 is not). */
export function isRealDate(s: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(s)) return false;
  const d = new Date(`${s}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === s;
}

export function addDays(date: string, n: number): string {
  const d = new Date(`${date}T12:00:00Z`);
  d.setUTCDate(d.getUTCDate() + n);
  return d.toISOString().slice(0, 10);
}

/** The instant an Eastern calendar day begins (midnight America/New_York). */
export function easternMidnight(date: string): number {
  // Midnight Eastern is 04:00 or 05:00 UTC; pick the one whose Eastern day is `date` at 00:xx.
  for (const h of [4, 5]) {
    const t = Date.parse(`${date}T0${h}:00:00Z`);
    if (easternDate(t) === date && easternDate(t - 3600_000) !== date) return t;
  }
  return Date.parse(`${date}T05:00:00Z`);
}

export function isoMs(ms: number): string {
  return new Date(ms).toISOString();
}

const hmFmt = new Intl.DateTimeFormat('en-GB', { timeZone: 'America/New_York', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });

const hmCache = new Map<number, string>();

/** Eastern wall-clock HH:MM of an instant (cached per minute). */
export function easternTime(ms: number): string {
  const minute = Math.floor(ms / 60_000);
  const hit = hmCache.get(minute);
  if (hit !== undefined) return hit;
  if (hmCache.size > 50_000) hmCache.clear();
  const v = hmFmt.format(new Date(minute * 60_000));
  hmCache.set(minute, v);
  return v;
}

/** The instant of an Eastern wall-clock time on an Eastern date (EDT or EST as in force). */
export function easternLocalToUtc(date: string, hhmm: string): number | null {
  const m = /^(\d{1,2}):?(\d{2})$/.exec(hhmm.trim());
  if (!m) return null;
  const hh = m[1].padStart(2, '0');
  for (const off of [4, 5]) {
    const t = Date.parse(`${date}T${hh}:${m[2]}:00Z`) + off * 3600_000;
    if (easternDate(t) === date && easternTime(t) === `${hh}:${m[2]}`) return t;
  }
  return null;
}

/**
 * Placeholder starts ("some venues publish a start of 00:00 Eastern or 23:59 Eastern as a
 * placeholder"): the day is meant, the time is not. Noon UTC to the second (12:00:00Z, 07:00 or
 * 08:00 Eastern) is the date-only placeholder of feeds that store a day as its UTC midday, so that
 * the day survives any time zone; the five leagues' games start in the Americas' afternoon and
 * evening (games abroad at 09:30 Eastern or earlier are printed on their own exact minute).
 */
export function isPlaceholderStart(ms: number): boolean {
  if (ms % 86_400_000 === 43_200_000) return true;
  const t = easternTime(ms);
  return t === '00:00' || t === '23:59';
}
