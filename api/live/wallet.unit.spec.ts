import { describe, expect, it } from 'vitest';
import { checkCursorWallet, exactUsernameMatch, parseWalletKey, planPositions, positionsBody } from './wallet.ts';
import { createCursorCodec } from '../../lib/cursor.ts';

const C = createCursorCodec('wallet-unit-test-secret');
import { proxyFor } from '../../pipelines/venues/client/proxy.ts';
import { apiErrorCode } from '../../test/helper.ts';

const A = '0x' + 'Ab'.repeat(20);
const B = '0x' + 'cd'.repeat(20);

describe('wallet keys', () => {
  it('exactly one of address and username', () => {
    expect(apiErrorCode(() => parseWalletKey({ address: A, username: 'x' }))).toBe('invalid_parameter');
    expect(apiErrorCode(() => parseWalletKey({}))).toBe('missing_parameter');
    expect(apiErrorCode(() => parseWalletKey({ address: '0x123' }))).toBe('invalid_parameter');
    expect(parseWalletKey({ address: A })).toEqual({ by: 'address', address: A.toLowerCase() });
    expect(parseWalletKey({ username: '@LuckyWhale' })).toEqual({ by: 'username', username: 'LuckyWhale' });
    expect(apiErrorCode(() => parseWalletKey({ username: '@' }))).toBe('invalid_parameter');
  });
  it('username match is case-insensitive and exact', () => {
    const ps = [{ proxyWallet: A, name: 'LuckyWhale100' }, { proxyWallet: B, name: 'LuckyWhale' }];
    expect(exactUsernameMatch('luckywhale', ps)?.proxyWallet).toBe(B);
    expect(exactUsernameMatch('luckywha', ps)).toBeUndefined();
  });
  it('the proxy is a deterministic function of the signer', () => {
    expect(proxyFor(A)).toBe(proxyFor(A.toLowerCase()));
    expect(proxyFor(A)).toMatch(/^0x[0-9a-f]{40}$/);
    expect(proxyFor(A)).not.toBe(proxyFor(B));
  });
});

describe('positions cursors', () => {
  const rows = Array.from({ length: 4 }, (_, i) => ({ conditionId: '0x' + String(i).repeat(64), outcome: 'Yes', size: 10 - i }));
  it('are bound to the wallet and carry the page size', () => {
    const first = planPositions({ address: A, limit: '3' }, C);
    const body = positionsBody(first, A, rows, C);
    expect(body.pagination).toMatchObject({ limit: 3, total: null, has_more: true });
    expect(body.data[0]).toMatchObject({ condition_id: rows[0].conditionId, outcome: 'Yes', shares: 10 });
    const next = planPositions({ address: A, cursor: body.pagination.next_cursor!, limit: '50' }, C);
    expect(next).toMatchObject({ offset: 3, limit: 3 });
    expect(() => checkCursorWallet(next, A.toLowerCase())).not.toThrow();
    expect(apiErrorCode(() => checkCursorWallet(planPositions({ address: B, cursor: body.pagination.next_cursor! }, C), B))).toBe('invalid_cursor');
  });
  it('rejects the earlier offset cursors', () => {
    expect(apiErrorCode(() => planPositions({ address: A, cursor: '50' }, C))).toBe('invalid_cursor');
    expect(apiErrorCode(() => planPositions({ address: A, cursor: 'bm90LWpzb24' }, C))).toBe('invalid_cursor');
  });
});
