// One lint configuration for every workspace. TypeScript files are linted with type information
// (each file by the tsconfig.json nearest to it), so a promise nobody awaits or catches is caught
// before it becomes a background failure nobody hears about.
import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/',
      '**/dist/',
      'artifacts/',
      'coverage/',
      '.tmp/',
      // Written by openapi-generator from openapi.yaml (gen:check holds it to the contract).
      'sdk/src/generated/',
    ],
  },
  {
    files: ['**/*.{js,mjs}'],
    ...js.configs.recommended,
    languageOptions: { globals: globals.node },
  },
  {
    files: ['**/*.{ts,tsx}'],
    extends: [js.configs.recommended, ...tseslint.configs.recommended],
    languageOptions: {
      parserOptions: {
        // The widest tsconfig of each workspace: the test configs include the sources too.
        project: ['api/tsconfig.json', 'sdk/tsconfig.test.json', 'cli/tsconfig.test.json', 'dashboard/tsconfig.test.json', 'infra/tsconfig.json'],
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      // Type-aware: a broker full of background work cannot afford a promise left unhandled.
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { arguments: false, attributes: false } }],
      '@typescript-eslint/await-thenable': 'error',
      '@typescript-eslint/consistent-type-imports': [
        'error',
        // `typeof import('…')` stays allowed: code run in a browser page names the module it finds there.
        { fixStyle: 'inline-type-imports', disallowTypeAnnotations: false },
      ],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
    },
  },
  {
    // Tests and benchmarks read arbitrary JSON off the wire and poke at it.
    files: ['*/test/**', '*/bench/**'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    // Files no tsconfig includes: linted without type information.
    files: ['api/vitest.config.ts', 'cli/vitest.config.ts', 'sdk/vitest.config.ts', 'cli/bin/*.d.ts'],
    extends: [tseslint.configs.disableTypeChecked],
    languageOptions: { parserOptions: { project: false } },
  },
);
