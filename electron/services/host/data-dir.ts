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
  if (env.STUDIO_DATA_DIR) return env.STUDIO_DATA_DIR;
  if (platform === 'win32') return join(env.APPDATA ?? join(homedir(), 'AppData', 'Roaming'), 'Avatar Studio');
  if (platform === 'darwin') return join(homedir(), 'Library', 'Application Support', 'Avatar Studio');
  return join(env.XDG_CONFIG_HOME ?? join(homedir(), '.config'), 'Avatar Studio');
}
