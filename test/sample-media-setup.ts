// Vitest globalSetup: the sandbox's sample media are generated once, before any test starts. Without it
// the first run on a fresh machine generates them in whichever test worker asks first, and a worker torn
// down at the end of its file leaves the next one to start over (the sandbox copes; the timings of the
// tests that wait meanwhile would not).
import { sharedCacheDir } from '../electron/emulator';
import { Catalogue, catalogueDirIn } from '../electron/emulator/catalogue/catalogue';
import { MediaTools } from '../electron/emulator/media/tools';

export async function setup(): Promise<void> {
  await new Catalogue(catalogueDirIn(sharedCacheDir()), new MediaTools({}), (line) => console.log(line)).ensure();
}
