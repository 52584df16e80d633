import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { parseProject } from '@common/composition';
import { runCli } from '../../../electron/cli/index';
import { collectingIo } from './cli-io';

const dir = mkdtempSync(join(tmpdir(), 'studio-templates-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const io = () => collectingIo(dir);

describe('studio templates list / project new', () => {
  it('lists the starter templates', async () => {
    const run = io();
    expect(await runCli(['templates', 'list', '--json'], run.io)).toBe(0);
    const { templates } = JSON.parse(run.out.join('\n')) as { templates: Array<{ id: string; name: string }> };
    expect(templates.map((t) => t.id)).toEqual([
      'starter:talking-head',
      'starter:product-explainer',
      'starter:news-lower-third',
      'starter:vertical-social',
      'starter:training-slides',
    ]);
  });

  it('writes a project from a template by name, with the brand kit, its pictures copied into the data folder', async () => {
    const run = io();
    expect(
      await runCli(
        [
          'project',
          'new',
          '--template',
          'Lower-third news',
          '--brand',
          '--name',
          'Evening bulletin',
          '--out',
          'bulletin.json',
        ],
        run.io,
      ),
    ).toBe(0);
    const parsed = parseProject(readFileSync(join(dir, 'bulletin.json'), 'utf8'));
    if (!parsed.ok) throw new Error(parsed.error);
    expect(parsed.project).toMatchObject({ name: 'Evening bulletin', background: '#0b1220' });
    const pictures = parsed.project.scenes[0].elements.filter((e) => e.url.startsWith('file:'));
    expect(pictures.length).toBeGreaterThan(0);
    for (const p of pictures) expect(fileURLToPath(p.url).startsWith(join(dir, 'data', 'imports'))).toBe(true);
    // The avatar is the connection's (the sandbox here), not a link saved with the template.
    expect(parsed.project.scenes[0].elements.find((e) => e.type === 'avatar')!.url).toMatch(
      /^http:\/\/127\.0\.0\.1:\d+\/sandbox\/avatar-SandboxBen/,
    );
  }, 120_000);

  it('refuses an unknown template by name, and an existing file without --force, writing nothing', async () => {
    const unknown = io();
    expect(await runCli(['project', 'new', '--template', 'wedding', '--out', 'x.json'], unknown.io)).toBe(2);
    expect(unknown.err.join('\n')).toContain(
      'No template "wedding"; `studio templates list` names them (talking-head, product-explainer',
    );
    expect(existsSync(join(dir, 'x.json'))).toBe(false);
    writeFileSync(join(dir, 'keep.json'), 'mine');
    const exists = io();
    expect(await runCli(['project', 'new', '--template', 'talking-head', '--out', 'keep.json'], exists.io)).toBe(2);
    expect(exists.err.join('\n')).toContain('keep.json exists; give --force to replace it');
    expect(readFileSync(join(dir, 'keep.json'), 'utf8')).toBe('mine');
  });
});
