import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../../electron/cli/index';
import type { CliIo } from '../../../electron/cli/command';
import { fixtures } from './helpers';

function io(): CliIo & { stdout: string[]; stderr: string[] } {
  const stdout: string[] = [];
  const stderr: string[] = [];
  return { stdout, stderr, out: (t) => stdout.push(t), err: (t) => stderr.push(t), env: {}, cwd: fixtures };
}

describe('studio export-body', () => {
  it('prints the golden avatar-video body', async () => {
    const cli = io();
    expect(await runCli(['export-body', 'two-scenes.project.json', '--webhook', 'https://hooks.example/done', '--placement', 'top-left'], cli)).toBe(0);
    expect(JSON.parse(cli.stdout.join('\n'))).toEqual(JSON.parse(readFileSync(join(fixtures, 'golden/two-scenes.avatar-video.body.json'), 'utf8')));
    expect(cli.stderr).toEqual([]);
  });

  it('prints the talking-avatar body for a talking-avatar project', async () => {
    const cli = io();
    expect(await runCli(['export-body', 'talking.project.json'], cli)).toBe(0);
    expect(JSON.parse(cli.stdout.join('\n'))).toMatchObject({ width: 1080, height: 1920, avatar_from: 3 });
  });

  it('prints every problem and exits non-zero', async () => {
    const cli = io();
    expect(await runCli(['export-body', 'two-scenes.project.json', '--target', 'talking-avatar'], cli)).toBe(1);
    expect(cli.stdout).toEqual([]);
    expect(cli.stderr).toEqual([
      'The project cannot be sent as a talking-avatar request (2 problem(s)):',
      '  error    A talking avatar has exactly one scene (this project has 2).',
      '  error    Scene 1 (Intro), element clip: a talking avatar cannot contain video elements (only avatar, image and audio).',
    ]);
  });

  it('explains bad command lines and unreadable files', async () => {
    const cli = io();
    expect(await runCli(['export-body', 'two-scenes.project.json', '--target', 'gif'], cli)).toBe(2);
    expect(cli.stderr[0]).toMatch(/--target must be avatar-video or talking-avatar/);
    expect(await runCli(['export-body', 'nope.json'], cli)).toBe(1);
    expect(cli.stderr.at(-1)).toBe('Cannot read nope.json: no such file');
    expect(await runCli(['export-body', 'progress-3s.txt'], cli)).toBe(1);
    expect(cli.stderr.at(-1)).toMatch(/progress-3s\.txt is not a valid project\. Not valid JSON/);
  });
});
