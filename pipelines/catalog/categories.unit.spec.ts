import { describe, expect, it } from 'vitest';
import { categoryFromWords, categoryOf } from './categories.ts';

describe('categoryOf, per venue, from what the venue publishes', () => {
  it('venue_1: the market category field', () => {
    expect(categoryOf('venue_1', { category: 'Sports' })).toBe('sports');
    expect(categoryOf('venue_1', { category: 'Financials' })).toBe('finance');
    expect(categoryOf('venue_1', { category: 'Climate and Weather' })).toBe('weather');
    expect(categoryOf('venue_1', { category: 'Science and Technology' })).toBe('technology');
    expect(categoryOf('venue_1', { category: 'World' })).toBe('other');
    expect(categoryOf('venue_1', { category: '' })).toBe('unknown');
    expect(categoryOf('venue_1', {})).toBe('unknown');
  });
  it('venue_2: tag slugs, the first one naming a bucket', () => {
    expect(categoryOf('venue_2', { tags: [{ slug: 'sports' }, { slug: 'nba' }] })).toBe('sports');
    expect(categoryOf('venue_2', { tags: [{ slug: 'fed-rates' }] })).toBe('economics');
    expect(categoryOf('venue_2', { tags: [{ slug: 'pop-culture' }] })).toBe('culture');
    expect(categoryOf('venue_2', { tags: [{ slug: 'world' }, { slug: 'elections' }] })).toBe('politics');
    expect(categoryOf('venue_2', { tags: [{ slug: 'trending' }] })).toBe('other');
    expect(categoryOf('venue_2', { tags: [] })).toBe('unknown');
  });
  it('venue_3: category', () => {
    expect(categoryOf('venue_3', { category: 'Markets' })).toBe('finance');
    expect(categoryOf('venue_3', { category: 'Economy' })).toBe('economics');
    expect(categoryOf('venue_3', { category: 'Tech' })).toBe('technology');
    expect(categoryOf('venue_3', { category: null })).toBe('unknown');
  });
  it('venue_4: sportLabel, sports by name', () => {
    expect(categoryOf('venue_4', { sportLabel: 'Basketball' })).toBe('sports');
    expect(categoryOf('venue_4', { sportLabel: 'Ice Hockey' })).toBe('sports');
    expect(categoryOf('venue_4', { sportLabel: 'Novelty' })).toBe('other');
    expect(categoryOf('venue_4', { sportLabel: 'Economy' })).toBe('economics');
    expect(categoryOf('venue_4', { sportLabel: null })).toBe('unknown');
  });
  it('venue_5: topic', () => {
    expect(categoryOf('venue_5', { topic: 'NBA' })).toBe('sports');
    expect(categoryOf('venue_5', { topic: 'Macro' })).toBe('economics');
    expect(categoryOf('venue_5', { topic: 'Celebrities' })).toBe('culture');
    expect(categoryOf('venue_5', { topic: 'Awards' })).toBe('entertainment');
    expect(categoryOf('venue_5', { topic: 'Misc' })).toBe('other');
    expect(categoryOf('venue_5', { topic: '' })).toBe('unknown');
  });
  it('venue_6: category', () => {
    expect(categoryOf('venue_6', { category: 'digital-assets' })).toBe('crypto');
    expect(categoryOf('venue_6', { category: 'climate' })).toBe('weather');
    expect(categoryOf('venue_6', { category: 'macro' })).toBe('economics');
    expect(categoryOf('venue_6', { category: null })).toBe('unknown');
  });
  it('venue_7: sport', () => {
    expect(categoryOf('venue_7', { sport: 'basketball' })).toBe('sports');
    expect(categoryOf('venue_7', { sport: 'specials-crypto' })).toBe('crypto');
    expect(categoryOf('venue_7', { sport: 'tv-and-film' })).toBe('entertainment');
    expect(categoryOf('venue_7', { sport: 'specials' })).toBe('other');
    expect(categoryOf('venue_7', {})).toBe('unknown');
  });
  it('venue_8: group slugs', () => {
    expect(categoryOf('venue_8', { groupSlugs: ['nba'] })).toBe('sports');
    expect(categoryOf('venue_8', { groupSlugs: ['us-politics'] })).toBe('politics');
    expect(categoryOf('venue_8', { groupSlugs: ['technology-default'] })).toBe('technology');
    expect(categoryOf('venue_8', { groupSlugs: ['fun'] })).toBe('other');
    expect(categoryOf('venue_8', { groupSlugs: [] })).toBe('unknown');
  });
  it('venue_9: tags, then the category field', () => {
    expect(categoryOf('venue_9', { tags: ['NBA'], category: 'sports' })).toBe('sports');
    expect(categoryOf('venue_9', { tags: ['Stocks'] })).toBe('finance');
    expect(categoryOf('venue_9', { tags: ['AI'] })).toBe('technology');
    expect(categoryOf('venue_9', { tags: ['Movies'] })).toBe('entertainment');
    expect(categoryOf('venue_9', { tags: [] })).toBe('unknown');
  });
  it('words outside the buckets are other; nothing usable is unknown', () => {
    expect(categoryFromWords(['Quirky'])).toBe('other');
    expect(categoryFromWords([null, '', '  '])).toBe('unknown');
    expect(categoryFromWords([42])).toBe('unknown');
  });
});
