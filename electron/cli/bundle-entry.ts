// What the command line's bundle (out/cli/studio.cjs, electron/launch/bundles.mjs) exports to bin.mjs.
export { runCli } from './index';
export { exitWhenDone } from './exit-when-done';
