import { homedir } from 'node:os';
import { join } from 'node:path';

/**
 * Where the Node hosts keep the studio's records when STUDIO_DATA_DIR does not say: the same folder
 * Electron gives the desktop app as userData, so projects, jobs and settings carry over between
 * `npm start` in a browser and the desktop app.
 */
export function defaultDataDir(
  env: Record<string, string | undefined> = process.env,
  platform = process.platform,
): string {
  return env.STUDIO_DATA_DIR || perUserDataDir(env, platform);
}

/**
 * The per-user folder itself, whatever STUDIO_DATA_DIR says: what follows a data folder that was named
 * (the archive's folders) asks whether the folder in use is this one, and a folder named by the
 * environment is as much another studio's as one named by --data-dir.
 */
export function perUserDataDir(
  env: Record<string, string | undefined> = process.env,
  platform = process.platform,
): string {
  if (platform === 'win32') return join(env.APPDATA ?? join(homedir(), 'AppData', 'Roaming'), 'Avatar Studio');
  if (platform === 'darwin') return join(homedir(), 'Library', 'Application Support', 'Avatar Studio');
  return join(env.XDG_CONFIG_HOME ?? join(homedir(), '.config'), 'Avatar Studio');
}
