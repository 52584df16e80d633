import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ESLint } from 'eslint';

const root = join(import.meta.dirname, '..', '..', '..');
const eslint = new ESLint({ cwd: root });

/** Lints `code` as if it were the (non-existent) file at `filePath` and returns the boundary errors. */
async function boundaryErrors(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: join(root, filePath) });
  return result.messages.filter((m) => m.ruleId === 'no-restricted-imports').map((m) => m.message);
}

describe('import-boundary lint rule', () => {
  it('rejects node:, electron and our other folders in electron/common', async () => {
    const file = 'electron/common/bridge/zz-virtual.ts';
    expect(await boundaryErrors(file, "import { readFileSync } from 'node:fs';\nexport const x = readFileSync;\n")).toEqual([
      expect.stringMatching(/environment-free/),
    ]);
    expect(await boundaryErrors(file, "import { app } from 'electron';\nexport const x = app;\n")).toHaveLength(1);
    expect(await boundaryErrors(file, "import { x } from '../../services/host/types';\nexport const y = x;\n")).toHaveLength(1);
    expect(await boundaryErrors(file, "import { z } from 'zod';\nexport const y = z;\n")).toEqual([]);
  });

  it('rejects electron and electron/main in services and the web host', async () => {
    expect(await boundaryErrors('electron/services/zz/virtual.ts', "import { shell } from 'electron';\nexport const x = shell;\n")).toEqual([
      expect.stringMatching(/Only electron\/main and electron\/preload may import electron/),
    ]);
    expect(await boundaryErrors('electron/web/zz-virtual.ts', "import { isAppUrl } from '../main/app-location';\nexport const x = isAppUrl;\n")).toHaveLength(1);
    expect(await boundaryErrors('electron/services/zz/virtual.ts', "import { callChannels } from '../../common/bridge';\nexport const x = callChannels;\n")).toEqual([]);
  });

  it('rejects services, node: and electron in the renderer', async () => {
    const file = 'renderer/src/zz-virtual.ts';
    expect(await boundaryErrors(file, "import { composeHost } from '../../electron/services/host/compose';\nexport const x = composeHost;\n")).toEqual([
      expect.stringMatching(/renderer imports only electron\/common/),
    ]);
    expect(await boundaryErrors(file, "import { join } from 'node:path';\nexport const x = join;\n")).toHaveLength(1);
    expect(await boundaryErrors(file, "import { ipcRenderer } from 'electron';\nexport const x = ipcRenderer;\n")).toHaveLength(1);
    expect(await boundaryErrors(file, "import { callChannels } from '@common/bridge';\nexport const x = callChannels;\n")).toEqual([]);
  });

  it('lets electron/main import electron', async () => {
    expect(await boundaryErrors('electron/main/zz-virtual.ts', "import { app } from 'electron';\nexport const x = app;\n")).toEqual([]);
  });
});

/** The layering rule's errors for `code` at `filePath`. */
async function layeringErrors(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: join(root, filePath) });
  return result.messages.filter((m) => m.ruleId === 'studio/layering').map((m) => m.message);
}

describe('layering allow-list', () => {
  it('lets each layer import what it lists, and nothing else of ours', async () => {
    // Services never start the sandbox themselves: the composition roots hand it in.
    expect(await layeringErrors('electron/services/zz/virtual.ts', "import { startEmulator } from '../../emulator';\nexport const x = startEmulator;\n")).toEqual([
      'services may import only common, services of ours, not emulator.',
    ]);
    expect(await layeringErrors('electron/emulator/zz-virtual.ts', "import { startWebHost } from '../web/web-host';\nexport const x = startWebHost;\n")).toHaveLength(1);
    expect(await layeringErrors('electron/preload/zz-virtual.ts', "import { composeHost } from '../services/host/compose';\nexport const x = composeHost;\n")).toHaveLength(1);
    expect(await layeringErrors('renderer/src/zz-virtual.ts', "import { x } from '@/stores/jobs';\nimport { y } from '@common/bridge';\nexport const z = [x, y];\n")).toEqual([]);
    expect(await layeringErrors('electron/web/zz-virtual.ts', "import { startEmulator } from '../emulator';\nimport { composeHost } from '../services/host/compose';\nexport const x = [startEmulator, composeHost];\n")).toEqual([]);
    expect(await layeringErrors('electron/common/zz/virtual.ts', "export { x } from '../../cli/command';\n")).toEqual(['common may import only common of ours, not cli.']);
  });
});
