// A data folder named relative to where the command is typed (`--data-dir worker-1`, as
// docs/scale-out.md's walkthrough names the workers' folders) is that folder for every service that
// opens it: the built-in sandbox's file server had refused a relative one ("root" option must be an
// absolute path), so an upload to the sandbox's storage failed.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { EXIT } from '../../../electron/cli/command';
import { runIn, writeLogo } from './cli-io';

const dir = mkdtempSync(join(tmpdir(), 'studio-relative-data-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('a data folder named relative to the working folder', () => {
  it('is opened there, by the sandbox too', async () => {
    writeLogo(join(dir, 'logo.png'));
    const run = await runIn(dir, ['upload', 'logo.png', '--data-dir', 'studio-data']);
    expect(run.code, run.said()).toBe(EXIT.ok);
    expect(run.out.join('\n')).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/files\/up-[0-9a-f]{16}-logo\.png$/m);
    expect(existsSync(join(dir, 'studio-data'))).toBe(true);
  });
});
