// Native identifier shapes the venues share (spec table "Provider tokens and identifier shapes"):
// each venue's adapter checks its own ids with them, and the live routes' resolution infers a
// provider from them (api/live/identifiers.ts). Pure.
export const HASH64 = /^0x[0-9a-fA-F]{64}$/;
export const NUMERIC = /^[0-9]+$/;
export const SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
export const TICKER = /^[A-Za-z0-9][A-Za-z0-9.]*(?:-[A-Za-z0-9.]+)+$/;
export const ULID = /^[0-9A-HJKMNP-TV-Za-hjkmnp-tv-z]{26}$/;
export const FIXTURE = /^L[0-9]+$/;
