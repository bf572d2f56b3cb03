import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ApiError, ERROR_CATALOG, apiErrorFromItems, isApiError, renderError } from './errors.ts';

const ROOT = join(import.meta.dirname, '..');
/** The API contract lives outside the repository: SPEC_PATH, relative to the repository root (README). */
const SPEC_PATH = resolve(ROOT, process.env.SPEC_PATH ?? join('..', 'shared', 'spec', 'SPEC.md'));
const SPEC_PRESENT = existsSync(SPEC_PATH);
// CI must check against the contract: there a missing file fails the check instead of skipping it.
const SKIP_SPEC = !SPEC_PRESENT && process.env.CI !== 'true';
if (SKIP_SPEC) console.warn(`errors.unit.spec: the contract is absent at ${SPEC_PATH} (set SPEC_PATH): its error-table check is skipped`);

/** Rows `| `code` | status | retry |` of a markdown table. */
function readmeRows(): Map<string, { status: number; retry: boolean }> {
  const text = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const section = text.split('\n## Errors')[1]?.split('\n## ')[0] ?? '';
  const rows = new Map<string, { status: number; retry: boolean }>();
  for (const m of section.matchAll(/^\| `([a-z_]+)` \| (\d{3}) \| (yes|no)[^|]* \|$/gm)) rows.set(m[1], { status: Number(m[2]), retry: m[3] === 'yes' });
  return rows;
}

/** The spec's error table: `| 400 | `a`, `b` | ... |`. */
function specCodes(): Map<string, number> {
  if (!SPEC_PRESENT) throw new Error(`the contract is absent at ${SPEC_PATH} (set SPEC_PATH to the contract's SPEC.md)`);
  const text = readFileSync(SPEC_PATH, 'utf8');
  const codes = new Map<string, number>();
  for (const line of text.split('\n')) {
    const m = /^\| (\d{3}) \| (`[^|]+) \|/.exec(line);
    if (!m) continue;
    for (const c of m[2].matchAll(/`([a-z_]+)`/g)) codes.set(c[1], Number(m[1]));
  }
  return codes;
}

describe('error catalog', () => {
  it('has exactly the README table: same codes, statuses and retry flags', () => {
    const rows = readmeRows();
    expect([...rows.keys()].sort()).toEqual(Object.keys(ERROR_CATALOG).sort());
    for (const [code, e] of Object.entries(ERROR_CATALOG)) expect(rows.get(code), code).toEqual({ status: e.status, retry: e.canRetry });
  });

  it.skipIf(SKIP_SPEC)(`covers every code of the spec's error table with the spec's status (${SPEC_PRESENT ? SPEC_PATH : `contract absent at ${SPEC_PATH}`})`, () => {
    const spec = specCodes();
    expect(spec.size).toBeGreaterThanOrEqual(20);
    for (const [code, status] of spec) expect(ERROR_CATALOG[code as keyof typeof ERROR_CATALOG]?.status, code).toBe(status);
  });

  it('renders the body with status_code, param and every problem', () => {
    const e = apiErrorFromItems('invalid_parameter', [
      { param: 'limit', value: '0', message: 'limit must be 1..100, got "0"' },
      { param: 'league', value: 'xfl', message: 'league must be one of nba, wnba, nfl, mlb, nhl, got "xfl"' },
    ]);
    expect(isApiError(e)).toBe(true);
    expect(renderError(e)).toEqual({
      code: 'invalid_parameter',
      message: 'limit must be 1..100, got "0"',
      status_code: 400,
      param: 'limit',
      errors: [
        { param: 'limit', value: '0', message: 'limit must be 1..100, got "0"' },
        { param: 'league', value: 'xfl', message: 'league must be one of nba, wnba, nfl, mlb, nhl, got "xfl"' },
      ],
    });
    expect(renderError(new ApiError('ambiguous_identifier', 'x', { param: 'market_id', candidates: ['venue_2', 'venue_3'] }))).toMatchObject({
      status_code: 409,
      candidates: ['venue_2', 'venue_3'],
    });
  });
});
