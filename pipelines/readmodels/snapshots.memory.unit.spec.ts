// The SnapshotStore contract on the in-process store (embedded default).
import { snapshotStoreContract } from './snapshots.contract.ts';
import { MemorySnapshotStore } from './memory-store.ts';

snapshotStoreContract('memory', async () => new MemorySnapshotStore());
