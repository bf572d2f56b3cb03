// runPlan: a plan's reads turned into the body or the spec's errors (404 not found, 409 ambiguous,
// 502 for a venue answer without its documented shape; any other error as thrown).
import { describe, expect, it } from 'vitest';
import { ApiError } from '../errors.ts';
import { MalformedUpstream, NOT_FOUND } from '../../pipelines/venues/client/http.ts';
import type { Provider } from '../routes/table.ts';
import { runPlan } from './io.ts';

const direct = { kind: 'direct', provider: 'venue_3', nativeId: '42' } as const;
const probe = { kind: 'probe', candidates: ['venue_2', 'venue_3'] as Provider[], nativeId: '42' } as const;
const outcome = (p: Promise<unknown>) =>
  p.then(
    (v) => ({ value: v }),
    (e: unknown) => (e instanceof ApiError ? { code: e.code, status: e.statusCode, message: e.message } : { thrown: e }),
  );

describe('runPlan', () => {
  it('direct: the body read, 404 for NOT_FOUND, 502 for a malformed answer, any other error as thrown', async () => {
    const body = { id: 'venue_3:42' };
    expect(await outcome(runPlan(direct, async () => body, 'market', '42'))).toEqual({ value: body });
    expect(await outcome(runPlan(direct, async () => NOT_FOUND, 'market', 'venue_3:42'))).toEqual({ code: 'market_not_found', status: 404, message: 'market "venue_3:42" was not found on venue_3' });
    expect(await outcome(runPlan(direct, async () => NOT_FOUND, 'event', 'venue_3:42'))).toMatchObject({ code: 'event_not_found', status: 404 });
    expect(await outcome(runPlan(direct, async () => Promise.reject(new MalformedUpstream('no data')), 'market', '42'))).toEqual({ code: 'upstream_unavailable', status: 502, message: 'venue_3 gave no valid answer: malformed answer (no data)' });
    const other = new ApiError('upstream_rate_limited', 'slow down');
    expect(await outcome(runPlan(direct, async () => Promise.reject(other), 'market', '42'))).toMatchObject({ code: 'upstream_rate_limited', message: 'slow down' });
    const plain = new Error('boom');
    expect(await outcome(runPlan(direct, async () => Promise.reject(plain), 'market', '42'))).toEqual({ thrown: plain });
  });

  it('probe: the one venue that holds the id, 404 for none, 409 for both, 502 when either answer is malformed', async () => {
    const on = (holders: Provider[]) => async (p: Provider) => (holders.includes(p) ? { on: p } : NOT_FOUND);
    expect(await outcome(runPlan(probe, on(['venue_3']), 'market', '42'))).toEqual({ value: { on: 'venue_3' } });
    expect(await outcome(runPlan(probe, on([]), 'market', '42'))).toMatchObject({ code: 'market_not_found', status: 404 });
    expect(await outcome(runPlan(probe, on(['venue_2', 'venue_3']), 'market', '42'))).toMatchObject({ code: 'ambiguous_identifier', status: 409 });
    const malformed = async (p: Provider) => (p === 'venue_2' ? Promise.reject(new MalformedUpstream('bad')) : { on: p });
    expect(await outcome(runPlan(probe, malformed, 'market', '42'))).toEqual({ code: 'upstream_unavailable', status: 502, message: 'venue_2 gave no valid answer: malformed answer (bad)' });
  });

  it('`as` turns the one value found into the answer, once; never on 404, 409 or an error', async () => {
    const seen: unknown[] = [];
    const as = (v: { on: string }) => (seen.push(v), { answer: v.on });
    expect(await outcome(runPlan(direct, async () => ({ on: 'venue_3' }), 'market', '42', as))).toEqual({ value: { answer: 'venue_3' } });
    expect(await outcome(runPlan(direct, async () => NOT_FOUND, 'market', '42', as))).toMatchObject({ code: 'market_not_found' });
    expect(await outcome(runPlan(direct, async () => Promise.reject(new MalformedUpstream('x')), 'market', '42', as))).toMatchObject({ code: 'upstream_unavailable' });
    const on = (holders: Provider[]) => async (p: Provider) => (holders.includes(p) ? { on: p } : NOT_FOUND);
    expect(await outcome(runPlan(probe, on(['venue_2']), 'market', '42', as))).toEqual({ value: { answer: 'venue_2' } });
    expect(await outcome(runPlan(probe, on(['venue_2', 'venue_3']), 'market', '42', as))).toMatchObject({ code: 'ambiguous_identifier' });
    expect(await outcome(runPlan(probe, on([]), 'market', '42', as))).toMatchObject({ code: 'market_not_found' });
    expect(seen).toEqual([{ on: 'venue_3' }, { on: 'venue_2' }]);
    // A read that throws before it returns a promise is answered as a rejected one, not thrown at the caller.
    const sync = runPlan(direct, () => { throw new MalformedUpstream('sync'); }, 'market', '42', as);
    expect(await outcome(sync)).toMatchObject({ code: 'upstream_unavailable' });
  });
});
