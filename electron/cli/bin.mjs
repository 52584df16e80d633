#!/usr/bin/env node
// The `studio` command: loads the TypeScript CLI through tsx and runs it.
import { register } from 'tsx/esm/api';

register();
const { runCli } = await import('./index.ts');
process.exitCode = await runCli(process.argv.slice(2));
