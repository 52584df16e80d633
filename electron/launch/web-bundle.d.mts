export function webBundlePath(root: string): string;
export function webBundleIsStale(root: string): boolean;
export function buildWebBundle(root: string): Promise<string>;
export function loadWebBundle(root: string): {
  exports: Record<string, unknown>;
  codeCache: 'used' | 'rejected' | 'none';
  saveCodeCache(): void;
};
