import { dirname, join, relative, resolve, sep } from 'node:path';
import tseslint from 'typescript-eslint';
import pluginVue from 'eslint-plugin-vue';
import vueParser from 'vue-eslint-parser';

// The layering of the architecture (see README, "Layout"), as an allow-list in the manner of VS Code's
// code-layering rule: each layer states which of our layers it may import. A new folder is no layer
// until it is listed here. test/unit/lint/boundaries.test.ts proves the rule bites.
const ROOT = import.meta.dirname;
const LAYERS = {
  common: ['common'],
  services: ['common', 'services'],
  emulator: ['common', 'services', 'emulator'],
  web: ['common', 'services', 'emulator', 'web'],
  cli: ['common', 'services', 'emulator', 'cli'],
  main: ['common', 'services', 'emulator', 'main'],
  preload: ['common', 'preload'],
  launch: ['launch'],
  renderer: ['common', 'renderer'],
};

/** The layer a file belongs to: electron/<layer>/…, or the renderer; null for tests and config. */
function layerOf(file) {
  const parts = relative(ROOT, file).split(sep);
  if (parts[0] === 'renderer') return 'renderer';
  if (parts[0] === 'electron' && parts.length > 2 && parts[1] in LAYERS) return parts[1];
  return null;
}

/** Where an import specifier points inside the repo, or null for a package. */
function targetOf(file, spec) {
  if (spec.startsWith('.')) return resolve(dirname(file), spec);
  if (spec.startsWith('@common/')) return join(ROOT, 'electron', 'common', spec.slice('@common/'.length));
  if (spec.startsWith('@/')) return join(ROOT, 'renderer', 'src', spec.slice(2));
  return null;
}

const layering = {
  meta: { type: 'problem', schema: [], messages: { forbidden: '{{from}} may import only {{allowed}} of ours, not {{to}}.' } },
  create(context) {
    const from = layerOf(context.filename);
    if (!from) return {};
    const check = (node) => {
      const spec = node.source && typeof node.source.value === 'string' ? node.source.value : null;
      const target = spec && targetOf(context.filename, spec);
      const to = target && layerOf(target.endsWith('.ts') || target.endsWith('.vue') || target.endsWith('.mjs') ? target : `${target}${sep}x.ts`);
      if (to && !LAYERS[from].includes(to)) context.report({ node, messageId: 'forbidden', data: { from, to, allowed: LAYERS[from].join(', ') } });
    };
    return { ImportDeclaration: check, ExportNamedDeclaration: check, ExportAllDeclaration: check, ImportExpression: check };
  },
};

// Packages each layer may not use (Node, Electron) are refused by the rules below.
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
    files: ['electron/**/*.ts', 'electron/**/*.mjs', 'renderer/**/*.ts', 'renderer/**/*.vue'],
    plugins: { studio: { rules: { layering } } },
    rules: { 'studio/layering': 'error' },
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
