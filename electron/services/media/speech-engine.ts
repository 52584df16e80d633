import { accessSync, constants, existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { delimiter, join } from 'node:path';

/**
 * Where espeak-ng is, for the sandbox (its voices and speech jobs) and the editor's local preview (the
 * draft voice). Order: an explicit path (the only candidate then, so a wrong one is reported rather
 * than silently replaced), the system's espeak-ng, then the WebAssembly build from the npm package
 * run by Node as a program of its own (so `npm install` alone gives speech).
 */
export interface SpeechEngine {
  bin: string;
  /** Arguments before espeak-ng's own (the WebAssembly build's script). */
  prefix: string[];
  name: string;
}

export interface SpeechEngineOptions {
  espeakPath?: string;
  /** false: skip the system's espeak-ng (tests of the npm fallback). */
  searchSystem?: boolean;
  /** Default: the process's PATH. */
  pathVar?: string;
}

const WASM_SPEECH_SCRIPT = fileURLToPath(new URL('./espeak-wasm.mjs', import.meta.url));

function executable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

export function findSpeechEngine(options: SpeechEngineOptions = {}): SpeechEngine | 'none' {
  if (options.espeakPath)
    return executable(options.espeakPath) ? { bin: options.espeakPath, prefix: [], name: 'espeak-ng' } : 'none';
  if (options.searchSystem !== false) {
    const onPath = (options.pathVar ?? process.env.PATH ?? '')
      .split(delimiter)
      .filter(Boolean)
      .map((d) => join(d, 'espeak-ng'));
    for (const candidate of ['/usr/bin/espeak-ng', ...onPath]) {
      if (executable(candidate)) return { bin: candidate, prefix: [], name: 'espeak-ng' };
    }
  }
  // The desktop app's own binary cannot run scripts as Node (its fuses forbid it): system espeak-ng only.
  if (process.versions.electron || !existsSync(WASM_SPEECH_SCRIPT)) return 'none';
  try {
    createRequire(import.meta.url).resolve('espeak-ng');
  } catch {
    return 'none';
  }
  // A process speaks one text and ends: V8's baseline WebAssembly compiler alone (no optimising tier-up of the
  // 18 MB module) makes the same bytes for about a fifth less CPU a sentence (0.26 s instead of 0.33 s).
  return {
    bin: process.execPath,
    prefix: ['--liftoff-only', WASM_SPEECH_SCRIPT],
    name: 'espeak-ng (WebAssembly build from npm)',
  };
}
