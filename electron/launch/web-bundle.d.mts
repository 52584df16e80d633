export function webBundlePath(root: string): string;
export function webBundleIsStale(root: string): boolean;
export function buildWebBundle(root: string): Promise<string>;
