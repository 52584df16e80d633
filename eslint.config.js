import tseslint from 'typescript-eslint';
import pluginVue from 'eslint-plugin-vue';
import vueParser from 'vue-eslint-parser';
import prettierOff from 'eslint-config-prettier';
import studio from './.eslint-plugin-local/index.js';

export default tseslint.config(
  // The import circle the no-cycle rule's own test lints on purpose (test/unit/lint/cycles.test.ts).
  { ignores: ['out/**', 'dist/**', 'node_modules/**', 'test-artifacts/**', 'test/fixtures/import-cycle/**'] },
  ...tseslint.configs.recommended,
  ...pluginVue.configs['flat/recommended'],
  {
    files: ['**/*.vue'],
    languageOptions: { parser: vueParser, parserOptions: { parser: tseslint.parser, sourceType: 'module' } },
  },
  {
    // Every source file, wherever it is: the rule refuses a file that no layer holds (fails closed).
    // The layers, and the packages each may not use, are in .eslint-plugin-local/layers.js.
    files: ['**/*.{ts,mts,cts,js,mjs,cjs,vue}'],
    // No import circles anywhere, type-only imports included (.eslint-plugin-local/no-cycle.js).
    plugins: { studio },
    rules: { 'studio/layering': 'error', 'studio/no-cycle': 'error' },
  },
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-explicit-any': 'error',
      'vue/multi-word-component-names': 'off',
    },
  },
  {
    // Product files stay small enough to read whole: past 400 lines, split where a seam shows.
    files: ['electron/**/*.{ts,mts,cts,js,mjs,cjs,vue}', 'renderer/**/*.{ts,vue}'],
    rules: { 'max-lines': ['error', { max: 400 }] },
  },
  // Layout is Prettier's (npm run format; lint checks it): ESLint's own layout rules would fight it.
  prettierOff,
);
