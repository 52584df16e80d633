// The repository's own imports as a graph, read from the files' text: what the no-cycle rule walks.
// Type-only imports count: a circle of types still ties the files' meaning together, and splitting it
// later costs the same.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { LAYERS } from './layers.js';

const ROOT = resolve(import.meta.dirname, '..');

/** Where an import of ours points (tsconfig's @common/ and @/ aliases included); null for a package. */
export function targetOf(file, spec) {
  if (spec.startsWith('.')) return resolve(dirname(file), spec);
  if (spec.startsWith('@common/')) return join(ROOT, LAYERS.common.folder, spec.slice('@common/'.length));
  if (spec.startsWith('@/')) return join(ROOT, LAYERS.renderer.folder, 'src', spec.slice(2));
  return null;
}

const EXTENSIONS = ['', '.ts', '.mts', '.cts', '.d.ts', '.js', '.mjs', '.cjs', '.vue'];
const isFile = (path) => existsSync(path) && statSync(path).isFile();

/** The file an import's target names, as the bundler and TypeScript resolve it; null if none exists. */
export function resolveFile(target) {
  for (const ext of EXTENSIONS) if (isFile(target + ext)) return target + ext;
  for (const ext of EXTENSIONS.slice(1)) if (isFile(join(target, `index${ext}`))) return join(target, `index${ext}`);
  // `./x.js` written for a `x.ts` (Node's ESM style).
  const js = target.match(/^(.*)\.(m|c)?js$/);
  if (js && isFile(`${js[1]}.${js[2] ?? ''}ts`)) return `${js[1]}.${js[2] ?? ''}ts`;
  return null;
}

// import … from 'x', export … from 'x', import 'x', import('x'), require('x'), import x = require('x').
const SPECIFIERS = /(?:\bfrom\s*|\bimport\s*\(\s*|\brequire\s*\(\s*|^\s*import\s+)(['"])([^'"\n]+)\1/gm;

/** The module names a file's text imports (comments are not told apart: a false edge only over-reports). */
export function specifiersIn(text) {
  return [...text.matchAll(SPECIFIERS)].map((match) => match[2]);
}

const edges = new Map();

/** The files of ours that `file` imports; read once per file and change. */
export function importsOf(file) {
  let stamp;
  try {
    stamp = statSync(file).mtimeMs;
  } catch {
    return [];
  }
  const known = edges.get(file);
  if (known?.stamp === stamp) return known.targets;
  const targets = targetsOf(file, readFileSync(file, 'utf8'));
  edges.set(file, { stamp, targets });
  return targets;
}

/** The files of ours that `text`, the content of `file`, imports. */
export function targetsOf(file, text) {
  const targets = new Set();
  for (const spec of specifiersIn(text)) {
    const target = targetOf(file, spec);
    const resolved = target && resolveFile(target);
    if (resolved && resolved !== file) targets.add(resolved);
  }
  return [...targets];
}

/**
 * A path of imports from `start` back to `goal` (both absolute), or null when there is none: the shortest
 * one, found breadth first, so the message names the tightest circle.
 */
export function pathBack(start, goal) {
  const cameFrom = new Map([[start, null]]);
  const queue = [start];
  while (queue.length > 0) {
    const file = queue.shift();
    for (const next of importsOf(file)) {
      if (cameFrom.has(next)) continue;
      cameFrom.set(next, file);
      if (next === goal) {
        const path = [];
        for (let at = next; at !== null; at = cameFrom.get(at)) path.unshift(at);
        return path;
      }
      queue.push(next);
    }
  }
  return null;
}
