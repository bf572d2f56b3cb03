// Key -> partition, the way Kafka's Java client and kafkajs's DefaultPartitioner do it:
// toPositive(murmur2(key)) % partitions. In: a key's bytes and a partition count. Out: a partition.
// Both log implementations use this one function, so a key lands on the same partition embedded and
// on a real broker, whatever client wrote it (the contract suite checks that).

const SEED = 0x9747b28c;
const M = 0x5bd1e995;
const R = 24;

/** Kafka's murmur2 (org.apache.kafka.common.utils.Utils.murmur2), as a signed 32-bit integer. */
export function murmur2(data: Buffer): number {
  const length = data.length;
  let h = SEED ^ length;
  const length4 = length >>> 2;
  for (let i = 0; i < length4; i++) {
    const i4 = i * 4;
    let k = data[i4]! | (data[i4 + 1]! << 8) | (data[i4 + 2]! << 16) | (data[i4 + 3]! << 24);
    k = Math.imul(k, M);
    k ^= k >>> R;
    k = Math.imul(k, M);
    h = Math.imul(h, M);
    h ^= k;
  }
  const tail = length & ~3;
  switch (length & 3) {
    case 3:
      h ^= data[tail + 2]! << 16;
    // falls through
    case 2:
      h ^= data[tail + 1]! << 8;
    // falls through
    case 1:
      h ^= data[tail]!;
      h = Math.imul(h, M);
  }
  h ^= h >>> 13;
  h = Math.imul(h, M);
  h ^= h >>> 15;
  return h | 0;
}

export function partitionForKey(key: Buffer, partitions: number): number {
  return (murmur2(key) & 0x7fffffff) % partitions;
}
