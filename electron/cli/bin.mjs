#!/usr/bin/env node
// The `studio` command: loads the TypeScript CLI through tsx and runs it. `studio worker` on glibc first
// starts again with its allocator's settings (worker-process.mjs), before the CLI is loaded here.
import { endWithParent, needsWorkerMalloc, runWithWorkerMalloc } from './worker-process.mjs';

const argv = process.argv.slice(2);
if (needsWorkerMalloc(argv)) {
  const code = await runWithWorkerMalloc(argv);
  process.exit(code);
}
endWithParent();
const { register } = await import('tsx/esm/api');
register();
const { runCli } = await import('./index.ts');
const { exitWhenDone } = await import('./exit-when-done.ts');
exitWhenDone(await runCli(argv));
