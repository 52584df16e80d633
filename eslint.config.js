import tseslint from 'typescript-eslint';
import pluginVue from 'eslint-plugin-vue';
import vueParser from 'vue-eslint-parser';

// The import boundaries of the architecture (see README, "Layout"): each rule names what a folder
// may not reach into. test/unit/lint/boundaries.test.ts proves these rules bite.
const ours = (...dirs) => dirs.flatMap((d) => [`**/electron/${d}/**`, `**/electron/${d}`]);
// Relative imports never spell "electron/", so they are caught by where they climb to.
const climbInto = (...dirs) => `^(\\.\\./)+(${dirs.join('|')})(/|$)`;
const boundary = (message, patterns, extra = [], regex = undefined) => ({
  'no-restricted-imports': [
    'error',
    { patterns: [{ group: patterns, message }, ...(regex ? [{ regex, message }] : [])], paths: extra },
  ],
});
const noElectron = [{ name: 'electron', message: 'Only electron/main and electron/preload may import electron.' }];

export default tseslint.config(
  { ignores: ['out/**', 'dist/**', 'node_modules/**', 'test-artifacts/**', '**/*.d.ts'] },
  ...tseslint.configs.recommended,
  ...pluginVue.configs['flat/recommended'],
  {
    files: ['**/*.vue'],
    languageOptions: { parser: vueParser, parserOptions: { parser: tseslint.parser, sourceType: 'module' } },
  },
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-explicit-any': 'error',
      'vue/multi-word-component-names': 'off',
      'vue/max-attributes-per-line': 'off',
      'vue/singleline-html-element-content-newline': 'off',
      'vue/html-self-closing': 'off',
    },
  },
  {
    files: ['electron/common/**/*.ts'],
    rules: boundary(
      'electron/common is environment-free: no node:, no electron, nothing else of ours.',
      [...ours('services', 'main', 'preload', 'emulator', 'web', 'cli'), 'node:*', '**/renderer/**'],
      [...noElectron, 'fs', 'path', 'child_process', 'os', 'http', 'https', 'crypto'].map((p) =>
        typeof p === 'string' ? { name: p, message: 'electron/common is environment-free.' } : p,
      ),
      `${climbInto('services', 'main', 'preload', 'emulator', 'web', 'cli')}|(^|/)renderer(/|$)`,
    ),
  },
  {
    files: ['electron/services/**/*.ts', 'electron/emulator/**/*.ts', 'electron/web/**/*.ts', 'electron/cli/**/*.ts'],
    rules: boundary(
      'Node hosts and services may import electron/common and electron/services only.',
      [...ours('main', 'preload'), '**/renderer/**'],
      noElectron,
      `${climbInto('main', 'preload')}|(^|/)renderer(/|$)`,
    ),
  },
  {
    files: ['renderer/**/*.ts', 'renderer/**/*.vue'],
    rules: boundary(
      'The renderer imports only electron/common (as @common/...) and itself.',
      [...ours('services', 'main', 'preload', 'emulator', 'web', 'cli'), 'node:*'],
      noElectron,
    ),
  },
);
