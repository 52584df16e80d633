import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import type { CampaignTemplate } from '@common/campaign/variables';
import { parseProject } from '@common/composition';

export const campaignFixtures = join(import.meta.dirname, '../../fixtures/campaign');

/** The two-scene greeting: a name in both scripts and in a text element, a per-row logo, avatar and voice. */
export function loadTemplate(fileName = '{{row}} - {{First name}}'): CampaignTemplate {
  const parsed = parseProject(readFileSync(join(campaignFixtures, 'greeting.project.json'), 'utf8'));
  if (!parsed.ok) throw new Error(parsed.error);
  return { project: parsed.project, fileName };
}

/** Pins exact output; regenerate with UPDATE_GOLDEN=1 after an intended change and review the diff. */
export function golden(name: string, value: unknown): void {
  const file = join(campaignFixtures, 'golden', name);
  const text = `${JSON.stringify(value, null, 2)}\n`;
  if (process.env.UPDATE_GOLDEN === '1') writeFileSync(file, text);
  expect(text).toBe(readFileSync(file, 'utf8'));
}
