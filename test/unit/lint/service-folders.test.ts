import { describe, expect, it } from 'vitest';
import { layering } from './layering-messages';

describe('allow-lists inside electron/services', () => {
  it('refuses an edge between sub-folders that the table does not list', async () => {
    expect(
      await layering(
        'electron/services/store/zz-virtual.ts',
        "import { JobEngine } from '../jobs/engine';\nexport const x = JobEngine;\n",
      ),
    ).toEqual([expect.stringMatching(/^services\/store may import host of its sibling folders, not services\/jobs/)]);
    // Type-only imports count: they tie the folders together just the same.
    expect(
      await layering(
        'electron/services/client/zz-virtual.ts',
        "import type { Logger } from '../host/types';\nexport type L = Logger;\n",
      ),
    ).toHaveLength(1);
    expect(
      await layering('electron/services/net/zz-virtual.mjs', "export { x } from '../media/probe';\n"),
    ).toHaveLength(1);
  });

  it('allows the listed edges and imports within a sub-folder', async () => {
    expect(
      await layering(
        'electron/services/downloads/zz-virtual.ts',
        "import { guardedFetch } from '../net/guarded-fetch';\nimport { a } from './archive';\nexport const x = [guardedFetch, a];\n",
      ),
    ).toEqual([]);
    expect(
      await layering(
        'electron/services/host/zz-virtual.ts',
        "import { JobEngine } from '../jobs/engine';\nexport const x = JobEngine;\n",
      ),
    ).toEqual([]);
  });

  it("lets the other sub-folders use only host's face, never the composition", async () => {
    expect(
      await layering(
        'electron/services/store/zz-virtual.ts',
        "import type { Logger } from '../host/types';\nimport { StudioError } from '../host/errors';\nexport const x = [StudioError as unknown as Logger];\n",
      ),
    ).toEqual([]);
    expect(
      await layering(
        'electron/services/jobs/zz-virtual.ts',
        "import { composeHost } from '../host/compose';\nexport const x = composeHost;\n",
      ),
    ).toEqual([expect.stringMatching(/^services\/jobs may use only types, errors, studio-types of services\/host/)]);
    expect(
      await layering(
        'electron/services/jobs/zz-virtual.ts',
        "import * as host from '../host';\nexport const x = host;\n",
      ),
    ).toHaveLength(1);
  });

  it('leaves other layers free to use any services sub-folder', async () => {
    expect(
      await layering(
        'electron/web/zz-virtual.ts',
        "import { composeHost } from '../services/host/compose';\nexport const x = composeHost;\n",
      ),
    ).toEqual([]);
  });
});
