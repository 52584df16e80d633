import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

/**
 * The Electron executable installed under `root`, or null when the package is there but its binary was
 * never downloaded (ELECTRON_SKIP_BINARY_DOWNLOAD, no access to GitHub) or the package is missing.
 */
export function electronBinary(root) {
  try {
    // The electron package exports the binary's path, and throws when its download did not happen.
    const path = createRequire(join(root, 'package.json'))('electron');
    return typeof path === 'string' && existsSync(path) ? path : null;
  } catch {
    return null;
  }
}
