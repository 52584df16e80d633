import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../../../electron/cli/index';
import type { CliIo } from '../../../electron/cli/command';
import type { PlacementConvention } from '../../../electron/common/composition/placement';
import { ConnectionManager } from '../../../electron/services/connections/connection-manager';
import { EnvVault } from '../../../electron/services/connections/env-vault';
import { createConfStoreFactory } from '../../../electron/services/store/conf-store';
import { MemoryLogger } from '../../../electron/services/log/file-logger';
import { start } from '../emulator/harness';

/** Check placement proves each convention against a sandbox that imitates it. */
const dir = mkdtempSync(join(tmpdir(), 'studio-check-placement-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function io(env: Record<string, string> = {}) {
  const out: string[] = [];
  const err: string[] = [];
  const value: CliIo = { out: (t) => out.push(t), err: (t) => err.push(t), env: { STUDIO_DATA_DIR: join(dir, 'data'), ...env }, cwd: dir };
  return { io: value, out, err };
}

const CONVENTIONS: PlacementConvention[] = [
  { anchor: 'centre', scale: 'frame' },
  { anchor: 'centre', scale: 'element' },
  { anchor: 'top-left', scale: 'frame' },
  { anchor: 'top-left', scale: 'element' },
];

describe('studio check-placement', () => {
  it('says what it would send and its cost, and sends nothing without --yes', async () => {
    const run = io();
    expect(await runCli(['check-placement'], run.io)).toBe(1);
    expect(run.err.join('\n')).toMatch(/One talking avatar, 640×360[\s\S]*Cost: [\s\S]*Balance: \d+ credits[\s\S]*Nothing was sent/);
  }, 120_000);

  for (const convention of CONVENTIONS) {
    it(`proves ${convention.anchor}/${convention.scale} against a sandbox that reads it`, async () => {
      const em = await start({ placement: convention.anchor, scale: convention.scale });
      try {
        const run = io({ STUDIO_API_KEY: em.apiKey });
        const code = await runCli(['check-placement', '--base-url', em.url, '--yes', '--json'], run.io);
        const result = JSON.parse(run.out.join('\n'));
        expect(result, run.err.join('\n')).toMatchObject({ proved: true, convention });
        expect(code).toBe(0);
      } finally {
        await em.close();
      }
    }, 120_000);
  }

  it('stores the proven convention on the connection', async () => {
    const run = io();
    expect(await runCli(['check-placement', '--yes'], run.io)).toBe(0);
    const connections = new ConnectionManager({
      createStore: createConfStoreFactory(join(dir, 'data'), { log: new MemoryLogger(), notify: () => undefined }),
      vault: new EnvVault({}),
      sandbox: async () => ({ baseUrl: 'http://127.0.0.1:9', apiKey: 'unused' }),
    });
    expect((await connections.get('sandbox')).placement).toMatchObject({ anchor: 'centre', scale: 'frame', source: 'measured', checkedAt: expect.any(Number) });
  }, 120_000);
});
