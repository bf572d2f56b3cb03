// The Lease contract in-process (MemoryLease), on a fake clock so expiry needs no waiting.
import { leaseContract } from './lease.contract.ts';
import { MemoryLease, MemoryLeaseRegistry } from './lease.ts';

leaseContract('in-process', () => {
  let now = Date.now();
  const registry = new MemoryLeaseRegistry(() => now);
  return Promise.resolve({
    open: () => Promise.resolve(new MemoryLease(registry)),
    pass: (ms: number) => {
      now += ms;
      return Promise.resolve();
    },
    shortTtlMs: 1_000,
  });
});
