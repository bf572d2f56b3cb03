import { describe, expect, it } from 'vitest';
import { NOT_FOUND } from '../client/http.ts';
import { buildVenue1Event, venue1Siblings } from './venue_1/event.ts';
import { buildVenue7Event } from './venue_7/event.ts';

const answer = (tickers: string[], title = 'A at B') => ({
  event: { title },
  markets: tickers.map((t) => ({ ticker: t, title: `${t} title` })),
});

describe('venue_1 sibling fanout', () => {
  it('names the other series of the same game, mlb start time included', () => {
    expect(venue1Siblings('KXMLBGAME-26JUL041910NYYBOS')?.siblings).toEqual([
      { series: 'KXMLBSPREAD', ticker: 'KXMLBSPREAD-26JUL041910NYYBOS' },
      { series: 'KXMLBTOTAL', ticker: 'KXMLBTOTAL-26JUL041910NYYBOS' },
    ]);
    expect(venue1Siblings('KXNBASPREAD-26NOV21LALBOS')?.siblings.map((s) => s.series)).toContain('KXNBAGAME');
    expect(venue1Siblings('KXBTCD-26NOV21Q1A2')).toBeNull();
    expect(venue1Siblings('KXNBAPTS-26NOV21LALBOS')).toBeNull(); // props are not siblings
  });

  it('merges returned siblings, drops absent ones, lists errored and malformed ones as missing', () => {
    const d = buildVenue1Event('KXNHLGAME-26NOV21BOSNYR', answer(['KXNHLGAME-26NOV21BOSNYR-BOS']), [
      { series: 'KXNHLSPREAD', result: answer(['KXNHLSPREAD-26NOV21BOSNYR-BOS1']) },
      { series: 'KXNHLTOTAL', result: NOT_FOUND },
    ]);
    expect(d.markets.map((m) => m.market_id)).toEqual(['KXNHLGAME-26NOV21BOSNYR-BOS', 'KXNHLSPREAD-26NOV21BOSNYR-BOS1']);
    expect(d.fanout).toEqual({ siblings_attempted: ['KXNHLSPREAD', 'KXNHLTOTAL'], siblings_returned: ['KXNHLSPREAD'], siblings_missing: [] });
    const e = buildVenue1Event('KXNHLGAME-26NOV21BOSNYR', answer([]), [
      { series: 'KXNHLSPREAD', result: new Error('down') },
      { series: 'KXNHLTOTAL', result: 'not json' },
    ]);
    expect(e.fanout).toEqual({ siblings_attempted: ['KXNHLSPREAD', 'KXNHLTOTAL'], siblings_returned: [], siblings_missing: ['KXNHLSPREAD', 'KXNHLTOTAL'] });
  });

  it('winner markets sharing a title get the team', () => {
    const d = buildVenue1Event(
      'KXNBAGAME-26NOV21LALBOS',
      { event: { title: 'LA at Boston' }, markets: [{ ticker: 'X-LAL', title: 'Winner?', yes_sub_title: 'Los Angeles L' }, { ticker: 'X-BOS', title: 'Winner?', yes_sub_title: 'Boston' }] },
      null,
    );
    expect(d.markets.map((m) => m.title)).toEqual(['Winner? (Los Angeles L)', 'Winner? (Boston)']);
    expect(d).not.toHaveProperty('fanout');
  });
});

describe('venue_7 events', () => {
  it('list event:type markets and leave props (type 100+) out', () => {
    const d = buildVenue7Event('3001', { event_id: 3001, name: 'Lakers at Celtics', markets: [{ id: '3001:1', type_id: 1, name: 'Moneyline' }, { id: '3001:101', type_id: 101, name: 'LeBron James Points' }] });
    expect(d.markets).toEqual([{ market_id: '3001:1', title: 'Moneyline' }]);
  });
});
