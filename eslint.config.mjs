import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['node_modules/**', '.data/**', '.infra/**', '.build/**', 'bench/out/**', 'clients/typescript/dist/**', 'clients/typescript/node_modules/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-explicit-any': 'warn',
    },
  },
  {
    // The pipeline sits below the API: pipelines/ never imports api/ (the shared words live in lib/).
    files: ['pipelines/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ group: ['**/api/*', '**/api/**'], message: 'pipelines/ never imports api/: put shared code in lib/ (lib/vocabulary.ts, lib/errors.ts).' }] }],
    },
  },
);
