import { existsSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { catalogueDirIn } from '../catalogue/catalogue';
import type { StateStore } from './store';

/**
 * Result files live in `<dataDir>/files` and are served at `/files/<name>` until they expire (7 days
 * by default, like the service's generated resources). Catalogue media lives in `<dataDir>/catalogue`
 * and is served at `/sandbox/<name>` without expiry.
 */
export class Files {
  readonly filesDir: string;
  readonly catalogueDir: string;
  readonly workDir: string;
  baseUrl = '';
  /** Ports this data folder's sandbox listened on before; its links from then are still its own. */
  earlierPorts: number[] = [];

  constructor(
    private readonly store: StateStore,
    private readonly ttlMs: number,
    private readonly now: () => number,
    catalogueRoot?: string,
  ) {
    this.filesDir = join(store.dataDir, 'files');
    this.catalogueDir = catalogueDirIn(catalogueRoot ?? join(store.dataDir, 'catalogue'));
    this.workDir = join(store.dataDir, 'work');
    for (const d of [this.filesDir, this.workDir]) mkdirSync(d, { recursive: true });
  }

  resultPath(name: string): string {
    return join(this.filesDir, name);
  }

  /** Records a finished result file so it is served and later expired. */
  register(name: string): void {
    const now = this.now();
    this.store.state.files[name] = { name, createdAt: now, expiresAt: now + this.ttlMs };
    this.store.fileChanged(name);
  }

  resultUrl(name: string): string {
    return `${this.baseUrl}/files/${encodeURIComponent(name)}`;
  }

  catalogueUrl(name: string): string {
    return `${this.baseUrl}/sandbox/${encodeURIComponent(name)}`;
  }

  /** The path of a live (unexpired) result file, or null. */
  liveResult(name: string): string | null {
    const entry = this.store.state.files[name];
    if (!entry || entry.expiresAt <= this.now()) return null;
    const path = this.resultPath(name);
    return existsSync(path) ? path : null;
  }

  /** Maps a URL served by this sandbox to its local file, or null for anything else. */
  localFileFor(url: string): string | null {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      return null;
    }
    const base = new URL(this.baseUrl);
    const loopback = (h: string) => h === '127.0.0.1' || h === 'localhost' || h === '[::1]' || h === base.hostname;
    const ownPort = parsed.port === base.port || this.earlierPorts.some((port) => parsed.port === String(port));
    if (!ownPort || !loopback(parsed.hostname)) return null;
    const match = /^\/(files|sandbox)\/([^/]+)$/.exec(parsed.pathname);
    if (!match) return null;
    const name = decodeURIComponent(match[2]);
    if (name.includes('/') || name.includes('\\') || name.startsWith('.')) return null;
    if (match[1] === 'files') return this.liveResult(name);
    const path = join(this.catalogueDir, name);
    return existsSync(path) ? path : null;
  }

  /** Deletes expired result files; returns how many went. */
  sweep(): number {
    const now = this.now();
    let removed = 0;
    for (const entry of Object.values(this.store.state.files)) {
      if (entry.expiresAt > now) continue;
      rmSync(this.resultPath(entry.name), { force: true });
      delete this.store.state.files[entry.name];
      this.store.fileChanged(entry.name);
      removed += 1;
    }
    return removed;
  }

  /** Scratch files of interrupted jobs are useless after a restart. */
  clearWork(): void {
    for (const f of readdirSync(this.workDir)) rmSync(join(this.workDir, f), { recursive: true, force: true });
  }
}
