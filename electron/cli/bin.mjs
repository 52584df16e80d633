#!/usr/bin/env node
// The `studio` command: loads the TypeScript CLI through tsx and runs it.
import { register } from 'tsx/esm/api';

register();
const { runProcess } = await import('./index.ts');
const { exitWhenDone } = await import('./exit-when-done.ts');
exitWhenDone(await runProcess(process.argv.slice(2)));
