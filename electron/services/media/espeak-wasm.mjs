#!/usr/bin/env node
// espeak-ng's own command line, run from the npm "espeak-ng" package (a WebAssembly build, GPL-3.0) in a
// separate Node process, for machines without the system espeak-ng. It takes the arguments the sandbox and the
// preview give the system binary: -v VOICE -s WPM -p PITCH -f TEXT_FILE -w OUT.wav.
import { readFileSync, writeFileSync } from 'node:fs';

const args = process.argv.slice(2);
const option = (flag) => {
  const at = args.indexOf(flag);
  return at >= 0 ? args[at + 1] : undefined;
};
const textFile = option('-f');
const out = option('-w');
if (!textFile || !out) {
  process.stderr.write('usage: espeak-wasm.mjs [-v VOICE] [-s WPM] [-p PITCH] -f TEXT_FILE -w OUT.wav\n');
  process.exit(2);
}
const { default: ESpeakNg } = await import('espeak-ng');
const passed = [];
for (const flag of ['-v', '-s', '-p']) {
  const value = option(flag);
  if (value !== undefined) passed.push(flag, value);
}
// The WebAssembly program sees its own in-memory file system: the text goes in, the WAV comes out.
const espeak = await ESpeakNg({
  arguments: [...passed, '-w', '/out.wav', '-f', '/in.txt'],
  preRun: [(module) => module.FS.writeFile('/in.txt', readFileSync(textFile))],
  print: () => {},
  printErr: (line) => process.stderr.write(`${line}\n`),
});
writeFileSync(out, espeak.FS.readFile('/out.wav'));
