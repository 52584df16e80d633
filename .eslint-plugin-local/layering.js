// The lint rule that holds every source file to the layer table in layers.js, in the manner of
// VS Code's code-layering rule, but failing closed: a file the table does not place is an error.
import { builtinModules } from 'node:module';
import { dirname, isAbsolute, relative, resolve, sep } from 'node:path';
import { targetOf } from './import-graph.js';
import { LAYERS, SERVICE_FOLDERS, importsOf, placeOf } from './layers.js';

const ROOT = resolve(import.meta.dirname, '..');
const TABLE = '.eslint-plugin-local/layers.js';
const SERVICES = LAYERS.services.folder;

/** A path relative to the repository, with `/` on every platform. */
export const fromRoot = (path) => relative(ROOT, path).split(sep).join('/');

const builtins = new Set(builtinModules);
const PACKAGE_TESTS = {
  node: (spec) => spec.startsWith('node:') || builtins.has(spec) || builtins.has(spec.split('/')[0]),
  electron: (spec) => spec === 'electron' || spec.startsWith('electron/'),
};

/** The node holding the module an import-like node names. */
function sourceOf(node) {
  if (node.type === 'CallExpression') return node.arguments[0];
  if (node.type === 'TSImportEqualsDeclaration') return node.moduleReference.expression;
  if (node.type === 'TSImportType') return node.source ?? node.argument?.literal ?? node.argument;
  return node.source;
}

/** The string an import-like node names, or null when it is computed at run time. */
export function specifierOf(node) {
  const source = sourceOf(node);
  if (source?.type === 'Literal' && typeof source.value === 'string') return source.value;
  if (source?.type === 'TemplateLiteral' && source.expressions.length === 0) return source.quasis[0].value.cooked;
  return null;
}

/** The layer of the file being linted, or the reason it has none. */
function homeOf(rel) {
  const place = placeOf(rel);
  if (!place.layer) return { problem: 'unplaced', data: { folder: dirname(rel) === '.' ? rel : `${dirname(rel)}/` } };
  if (place.looseInServices) return { problem: 'looseService', data: { file: rel } };
  if (place.subFolder && !(place.subFolder in SERVICE_FOLDERS))
    return { problem: 'unlistedService', data: { folder: `${SERVICES}/${place.subFolder}/` } };
  return { place };
}

const messages = {
  unplaced: `{{folder}} is in no layer, so nothing checks what it imports. List its folder in LAYERS in ${TABLE} (then run npm run docs:layers), or move the file into a listed folder.`,
  looseService: `{{file}} sits loose in ${SERVICES}/: put it in a sub-folder listed in SERVICE_FOLDERS in ${TABLE}.`,
  unlistedService: `{{folder}} is not listed in SERVICE_FOLDERS in ${TABLE}: list it with the sibling folders it may import (then run npm run docs:layers).`,
  forbidden: `{{from}} may import {{allowed}} of ours, not {{to}} ('{{spec}}'); the layers are in ${TABLE}.`,
  nowhere: `'{{spec}}' points at {{target}}, which is in no layer.`,
  serviceEdge: `services/{{from}} may import {{allowed}} of its sibling folders, not services/{{to}} ('{{spec}}'); add the edge to SERVICE_FOLDERS in ${TABLE} only if it is no layering mistake.`,
  face: `services/{{from}} may use only {{face}} of services/{{to}} (its shared face), not '{{spec}}'.`,
  refused: `{{from}} may not import {{kind}} packages ('{{spec}}'); the layers are in ${TABLE}.`,
};

const listed = (names) => (names.length ? names.join(', ') : 'nothing');

export const layering = {
  meta: { type: 'problem', schema: [], messages },
  create(context) {
    const file = context.filename;
    if (!isAbsolute(file)) return {};
    const rel = fromRoot(file);
    if (rel.startsWith('..')) return {};
    const home = homeOf(rel);
    if (home.problem) {
      return {
        Program: (node) =>
          context.report({ node, loc: { line: 1, column: 0 }, messageId: home.problem, data: home.data }),
      };
    }
    const { layer: from, subFolder } = home.place;
    const report = (node, messageId, data) => context.report({ node, messageId, data });

    const check = (node) => {
      const spec = specifierOf(node);
      if (!spec) return;
      const target = targetOf(file, spec);
      if (!target) {
        const kind = LAYERS[from].refuses.find((name) => PACKAGE_TESTS[name](spec));
        if (kind) report(node, 'refused', { from, kind: kind === 'node' ? 'Node' : 'Electron', spec });
        return;
      }
      const to = placeOf(fromRoot(target), { target: true });
      if (!to.layer) return report(node, 'nowhere', { spec, target: fromRoot(target) });
      const allowed = importsOf(from);
      if (!allowed.includes(to.layer))
        return report(node, 'forbidden', { from, to: to.layer, spec, allowed: listed(allowed) });
      if (from !== 'services' || to.layer !== 'services' || !subFolder || to.subFolder === subFolder) return;
      const siblings = SERVICE_FOLDERS[subFolder].imports;
      if (!siblings.includes(to.subFolder))
        return report(node, 'serviceEdge', {
          from: subFolder,
          to: to.subFolder ?? '(the folder itself)',
          spec,
          allowed: listed(siblings),
        });
      const face = SERVICE_FOLDERS[to.subFolder].face;
      if (face && !face.includes(to.module))
        report(node, 'face', { from: subFolder, to: to.subFolder, spec, face: face.join(', ') });
    };
    const requireCall = (node) => {
      if (node.callee.type === 'Identifier' && node.callee.name === 'require' && node.arguments.length === 1)
        check(node);
    };
    return {
      ImportDeclaration: check,
      ExportNamedDeclaration: check,
      ExportAllDeclaration: check,
      ImportExpression: check,
      TSImportEqualsDeclaration: (node) => node.moduleReference.type === 'TSExternalModuleReference' && check(node),
      TSImportType: check,
      CallExpression: requireCall,
    };
  },
};
