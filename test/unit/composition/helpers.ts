import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseProject, type Project } from '@common/composition';

export const fixtures = join(import.meta.dirname, '../../fixtures/composition');

export function loadProject(name: string): Project {
  const parsed = parseProject(readFileSync(join(fixtures, name), 'utf8'));
  if (!parsed.ok) throw new Error(parsed.error);
  return parsed.project;
}
