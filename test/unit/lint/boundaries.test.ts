import { describe, expect, it } from 'vitest';
import { layering } from './layering-messages';

const plain = 'export const x = 1;\n';

describe('layering fails closed', () => {
  it('refuses a source file in a folder no layer lists, naming the folder and where to list it', async () => {
    for (const file of [
      'tools/zz-virtual.ts',
      'electron/plugins/zz-virtual.mjs',
      'scripts/deep/zz-virtual.cjs',
      'resources/zz-virtual.js',
    ]) {
      const folder = file.slice(0, file.lastIndexOf('/') + 1);
      expect(await layering(file, plain), file).toEqual([expect.stringContaining(`${folder} is in no layer`)]);
    }
    expect((await layering('electron/plugins/zz-virtual.ts', plain))[0]).toContain('.eslint-plugin-local/layers.js');
  });

  it('covers every source extension, .vue included', async () => {
    for (const ext of ['ts', 'mts', 'cts', 'js', 'mjs', 'cjs', 'd.ts']) {
      expect(await layering(`electron/newlayer/zz-virtual.${ext}`, plain), ext).toHaveLength(1);
    }
    expect(await layering('electron/newlayer/ZzVirtual.vue', '<template><div /></template>\n')).toHaveLength(1);
  });

  it('places the files that belong somewhere', async () => {
    for (const file of [
      'electron/common/zz-virtual.ts',
      'renderer/src/zz-virtual.ts',
      'test/anything/zz-virtual.mjs',
      'docs/zz-virtual.mjs',
      'zz-virtual.config.ts',
      '.eslint-plugin-local/zz-virtual.js',
    ]) {
      expect(await layering(file, plain), file).toEqual([]);
    }
  });

  it('refuses a services sub-folder the table does not list, and a file loose in services/', async () => {
    expect(await layering('electron/services/zz-new/virtual.ts', plain)).toEqual([
      expect.stringContaining('electron/services/zz-new/ is not listed in SERVICE_FOLDERS'),
    ]);
    expect(await layering('electron/services/zz-virtual.ts', plain)).toEqual([
      expect.stringContaining('sits loose in electron/services/'),
    ]);
  });
});

describe('layer allow-lists', () => {
  it('lets each layer import what it lists, and nothing else of ours', async () => {
    // Services never start the sandbox themselves: the composition roots hand it in (HostBase.sandbox).
    expect(
      await layering(
        'electron/services/jobs/zz-virtual.ts',
        "import { startEmulator } from '../../emulator';\nexport const x = startEmulator;\n",
      ),
    ).toEqual([
      "services may import services, common of ours, not emulator ('../../emulator'); the layers are in .eslint-plugin-local/layers.js.",
    ]);
    expect(
      await layering(
        'electron/emulator/zz-virtual.ts',
        "import { startWebHost } from '../web/web-host';\nexport const x = startWebHost;\n",
      ),
    ).toHaveLength(1);
    expect(
      await layering(
        'electron/preload/zz-virtual.ts',
        "import { composeHost } from '../services/host/compose';\nexport const x = composeHost;\n",
      ),
    ).toHaveLength(1);
    expect(await layering('electron/common/zz/virtual.ts', "export { x } from '../../cli/command';\n")).toEqual([
      expect.stringMatching(/^common may import common of ours, not cli/),
    ]);
    expect(
      await layering(
        'renderer/src/zz-virtual.ts',
        "import { composeHost } from '../../electron/services/host/compose';\nexport const x = composeHost;\n",
      ),
    ).toHaveLength(1);
    expect(
      await layering(
        'renderer/src/zz-virtual.ts',
        "import { x } from '@/stores/jobs';\nimport { y } from '@common/bridge';\nexport const z = [x, y];\n",
      ),
    ).toEqual([]);
  });

  it('lets the three hosts start the built-in sandbox', async () => {
    const code =
      "import { builtInSandboxStarter } from '../emulator/built-in';\nexport const x = builtInSandboxStarter;\n";
    for (const host of ['main', 'web', 'cli'])
      expect(await layering(`electron/${host}/zz-virtual.ts`, code), host).toEqual([]);
  });

  it('checks require(), import(), export-from, import = require and import types alike', async () => {
    const file = 'electron/common/zz-virtual';
    expect(
      await layering(`${file}.cjs`, "const t = require('../services/host/types');\nmodule.exports = t;\n"),
    ).toEqual([expect.stringContaining('not services')]);
    expect(await layering(`${file}.mjs`, "export const load = () => import('../web/web-host.ts');\n")).toEqual([
      expect.stringContaining('not web'),
    ]);
    expect(await layering(`${file}.ts`, "export * from '../main/ipc';\n")).toEqual([
      expect.stringContaining('not main'),
    ]);
    expect(await layering(`${file}.cts`, "import t = require('../cli/command');\nexport = t;\n")).toEqual([
      expect.stringContaining('not cli'),
    ]);
    expect(await layering(`${file}.ts`, "export type T = import('../emulator').RunningEmulator;\n")).toEqual([
      expect.stringContaining('not emulator'),
    ]);
  });
});

describe('refused packages', () => {
  it('keeps Node and electron out of common and the renderer, and electron out of the Node layers', async () => {
    expect(
      await layering(
        'electron/common/zz-virtual.ts',
        "import { readFileSync } from 'node:fs';\nexport const x = readFileSync;\n",
      ),
    ).toEqual(["common may not import Node packages ('node:fs'); the layers are in .eslint-plugin-local/layers.js."]);
    expect(
      await layering('electron/common/zz-virtual.mjs', "import { join } from 'path';\nexport const x = join;\n"),
    ).toHaveLength(1);
    expect(
      await layering('electron/common/zz-virtual.ts', "import { app } from 'electron';\nexport const x = app;\n"),
    ).toEqual([expect.stringContaining('Electron packages')]);
    expect(
      await layering(
        'renderer/src/zz-virtual.ts',
        "import { ipcRenderer } from 'electron';\nexport const x = ipcRenderer;\n",
      ),
    ).toHaveLength(1);
    expect(
      await layering('renderer/src/zz-virtual.ts', "import { join } from 'node:path';\nexport const x = join;\n"),
    ).toHaveLength(1);
    expect(
      await layering(
        'electron/preload/zz-virtual.ts',
        "import { readFileSync } from 'node:fs';\nexport const x = readFileSync;\n",
      ),
    ).toHaveLength(1);
    for (const layer of ['services/jobs', 'emulator', 'web', 'cli']) {
      expect(
        await layering(
          `electron/${layer}/zz-virtual.ts`,
          "import { shell } from 'electron';\nexport const x = shell;\n",
        ),
        layer,
      ).toHaveLength(1);
    }
  });

  it('lets main and preload use electron, and common use plain packages', async () => {
    expect(
      await layering('electron/main/zz-virtual.ts', "import { app } from 'electron';\nexport const x = app;\n"),
    ).toEqual([]);
    expect(
      await layering(
        'electron/preload/zz-virtual.ts',
        "import { contextBridge } from 'electron';\nexport const x = contextBridge;\n",
      ),
    ).toEqual([]);
    expect(await layering('electron/common/zz-virtual.ts', "import { z } from 'zod';\nexport const x = z;\n")).toEqual(
      [],
    );
  });
});
