#!/usr/bin/env node
// The `studio` command: runs the command line from its bundle (cli-bundle.mjs), made again first when a
// source changed, or from its TypeScript through tsx when no bundle can be made. `studio worker` on glibc
// first starts again with its allocator's settings (worker-process.mjs), before the CLI is loaded here.
import { endWithParent, needsWorkerMalloc, runWithWorkerMalloc } from './worker-process.mjs';
import { cliBundle } from './cli-bundle.mjs';

const argv = process.argv.slice(2);
if (needsWorkerMalloc(argv)) {
  const code = await runWithWorkerMalloc(argv);
  process.exit(code);
}
endWithParent();
const cli = await cliBundle();
if (cli) {
  cli.exitWhenDone(await cli.runCli(argv));
} else {
  const { register } = await import('tsx/esm/api');
  register();
  const { runCli } = await import('./index.ts');
  const { exitWhenDone } = await import('./exit-when-done.ts');
  exitWhenDone(await runCli(argv));
}
