// The marketplace's deterministic proxy wallet (spec: "GET /v1/marketplace/wallet": "An EOA input
// resolves to the deterministic proxy"). In: a signer EOA. Out: its proxy address, lower-cased.
// The venue deploys each user's proxy with CREATE2 from a fixed factory, so the address follows
// from the signer alone: last 20 bytes of H(0xff ++ factory ++ H(signer) ++ initCodeHash). SHA3-256
// stands in for the chain's hash (node has no keccak); the simulator derives its wallets with this
// same function, so a signer always finds its proxy without asking the venue.
import { createHash } from 'node:crypto';

const FACTORY = 'ab45c5a4b0c941a2f231c04c3f49182e1a254052';
const INIT_CODE_HASH = 'd21df8dc65880a8606f09fe0ce3df9b8869287ab0b058be05aa9e8af6330a00b';

const sha3 = (b: Buffer): Buffer => createHash('sha3-256').update(b).digest();

export const ADDRESS = /^0x[a-fA-F0-9]{40}$/;

export function proxyFor(signer: string): string {
  if (!ADDRESS.test(signer)) throw new Error(`not an address: ${signer}`);
  const salt = sha3(Buffer.from(signer.slice(2).toLowerCase(), 'hex'));
  const preimage = Buffer.concat([Buffer.from('ff', 'hex'), Buffer.from(FACTORY, 'hex'), salt, Buffer.from(INIT_CODE_HASH, 'hex')]);
  return '0x' + sha3(preimage).subarray(12).toString('hex');
}
