/** The bundles electron/launch/bundles.mjs makes: the web host's, and the command line's. */
export type BundleName = 'web' | 'cli';
export function bundlePath(root: string, name: BundleName): string;
export function bundleIsStale(root: string, name: BundleName): boolean;
export function buildBundle(root: string, name: BundleName): Promise<string>;
export function loadBundle(
  root: string,
  name: BundleName,
): {
  exports: Record<string, unknown>;
  codeCache: 'used' | 'rejected' | 'none';
  saveCodeCache: () => void;
};
