// The content hash of change-only ingestion (pipelines/venues/pollers/changes.ts contentHash): the
// one-shot crypto.hash against a Hash object per record (createHash().update().digest()), same
// process, same payloads (listing-record-sized JSON), two rounds each; checks the digests agree.
//
//   npx tsx bench/content-hash.ts [--n 200000]
import { createHash } from 'node:crypto';
import { contentHash } from '../pipelines/venues/pollers/changes.ts';

const i = process.argv.indexOf('--n');
const N = i === -1 ? 200_000 : Number(process.argv[i + 1]);
const payloads = Array.from({ length: N }, (_, k) =>
  JSON.stringify({ id: `KXPOL-26NOV30G${k}`, title: 'Market question text of a usual length for a listed market', price: 0.5 + k / 1e7, volume: k * 7, status: 'open', rules: 'x'.repeat(700) }),
);
const ms = (f: () => void) => {
  const t = process.hrtime.bigint();
  f();
  return Number(process.hrtime.bigint() - t) / 1e6;
};
for (const p of payloads.slice(0, 1000)) if (contentHash(p) !== createHash('sha1').update(p).digest('base64')) throw new Error('digests differ');
console.log(`${new Date().toISOString()} node ${process.version}, ${N} payloads of ${payloads[0]!.length} characters`);
// Five rounds, the order alternating (the first pass of a round also pays for collections the other left).
const ratios: number[] = [];
for (let round = 1; round <= 5; round++) {
  const runObject = () => ms(() => payloads.forEach((p) => createHash('sha1').update(p).digest('base64')));
  const runOneShot = () => ms(() => payloads.forEach((p) => contentHash(p)));
  let object: number;
  let oneShot: number;
  if (round % 2) {
    object = runObject();
    oneShot = runOneShot();
  } else {
    oneShot = runOneShot();
    object = runObject();
  }
  ratios.push(oneShot / object);
  console.log(`round ${round} (${round % 2 ? 'Hash object first' : 'crypto.hash first'}): Hash object ${object.toFixed(0)} ms, crypto.hash ${oneShot.toFixed(0)} ms: ${(oneShot / object).toFixed(2)}x`);
}
console.log(`median ${[...ratios].sort((a, b) => a - b)[2]!.toFixed(2)}x`);
