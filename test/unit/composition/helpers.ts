import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import { parseProject, type Project } from '@common/composition';

export const fixtures = join(import.meta.dirname, '../../fixtures/composition');

export function loadProject(name: string): Project {
  const parsed = parseProject(readFileSync(join(fixtures, name), 'utf8'));
  if (!parsed.ok) throw new Error(parsed.error);
  return parsed.project;
}

/**
 * Golden files pin exact output (ffmpeg arguments, request bodies). After an intended change,
 * regenerate with UPDATE_GOLDEN=1 and review the diff.
 */
export function golden(name: string, value: unknown): void {
  const file = join(fixtures, 'golden', name);
  const text = `${JSON.stringify(value, null, 2)}\n`;
  if (process.env.UPDATE_GOLDEN === '1') writeFileSync(file, text);
  expect(text).toBe(readFileSync(file, 'utf8'));
}

/** A starter template's project (resources/templates), as File › New project… makes it. */
export function starter(name: string): Project {
  const file = JSON.parse(
    readFileSync(join(import.meta.dirname, '../../../resources/templates', name, 'template.json'), 'utf8'),
  ) as {
    project: unknown;
  };
  const parsed = parseProject(file.project);
  if (!parsed.ok) throw new Error(parsed.error);
  return parsed.project;
}
