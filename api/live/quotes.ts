// The quote arithmetic lives in lib/quotes.ts (the price-history sink in pipelines/ derives quotes
// the same way); re-exported here for the live routes.
export * from '../../lib/quotes.ts';
