// No import circles: a file may not import, directly or through others, a file that imports it back.
// A circle makes the order modules load in matter (a name read before its module ran is undefined) and
// ties files together that read as separate, so it is refused where it is made, naming the whole loop.
import { isAbsolute } from 'node:path';
import { pathBack, resolveFile, targetOf } from './import-graph.js';
import { fromRoot, specifierOf } from './layering.js';

const messages = {
  circle:
    "'{{spec}}' closes an import circle: {{loop}}. Move what both sides need into a file of its own that neither imports back.",
};

export const noCycle = {
  meta: { type: 'problem', schema: [], messages },
  create(context) {
    const file = context.filename;
    if (!isAbsolute(file) || fromRoot(file).startsWith('..')) return {};
    const check = (node) => {
      const spec = specifierOf(node);
      const target = spec && targetOf(file, spec);
      const resolved = target && resolveFile(target);
      if (!resolved || resolved === file) return;
      const back = pathBack(resolved, file);
      if (back)
        context.report({ node, messageId: 'circle', data: { spec, loop: [file, ...back].map(fromRoot).join(' → ') } });
    };
    const requireCall = (node) => {
      if (node.callee.type === 'Identifier' && node.callee.name === 'require' && node.arguments.length === 1)
        check(node);
    };
    return {
      ImportDeclaration: check,
      ExportNamedDeclaration: (node) => node.source && check(node),
      ExportAllDeclaration: check,
      ImportExpression: check,
      TSImportEqualsDeclaration: (node) => node.moduleReference.type === 'TSExternalModuleReference' && check(node),
      TSImportType: check,
      CallExpression: requireCall,
    };
  },
};
