#!/usr/bin/env node
// The `studio` command: loads the TypeScript CLI through tsx and runs it.
import { register } from 'tsx/esm/api';

register();
const { runCli } = await import('./index.ts');
const { exitWhenDone } = await import('./exit-when-done.ts');
exitWhenDone(await runCli(process.argv.slice(2)));
