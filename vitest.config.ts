// Test tiers live in the file name (*.unit.spec.ts, *.int.spec.ts, *.e2e.spec.ts), beside the code.
// Only the int and e2e tiers touch services, so only they get the longer hook timeouts.
// The e2e tier runs after the other two (sequence.groupOrder), one file at a time, alone: its
// services run their pipeline threads at WORKER_NICE (10, as `make run` does), and beside an int
// file's work at nice 0 on two cores such a thread got a small share of a core, so a pipeline that
// catches up in seconds alone took minutes (a stream test's 150 s wait for a republished event ran
// out in one CI run; two busy loops beside it starved the same file of a first matched event).
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: [
      { test: { name: 'unit', include: ['**/*.unit.spec.ts'], exclude: ['node_modules/**'], sequence: { groupOrder: 0 } } },
      {
        test: {
          name: 'int',
          include: ['**/*.int.spec.ts'],
          exclude: ['node_modules/**'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
          sequence: { groupOrder: 0 },
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['**/*.e2e.spec.ts'],
          exclude: ['node_modules/**'],
          testTimeout: 120_000,
          hookTimeout: 180_000,
          fileParallelism: false,
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
