// Test tiers live in the file name (*.unit.spec.ts, *.int.spec.ts, *.e2e.spec.ts), beside the code.
// Only the int and e2e tiers touch services, so only they get the longer hook timeouts.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: [
      { test: { name: 'unit', include: ['**/*.unit.spec.ts'], exclude: ['node_modules/**'] } },
      {
        test: {
          name: 'int',
          include: ['**/*.int.spec.ts'],
          exclude: ['node_modules/**'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
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
        },
      },
    ],
  },
});
