import type { CliOption } from './command';

/** Options several commands share, declared once so their names and help read the same everywhere. */
export const JSON_OPTION: CliOption = { name: '--json', help: 'print JSON on stdout (errors too) instead of text' };

export const AGAIN_OPTION: CliOption = {
  name: '--again',
  help: 'send it even if the same request was sent before (a new paid job)',
};

export const OUT_OPTION: CliOption = {
  name: '--out',
  value: 'FILE',
  help: 'also save the result here (relative to where you run it)',
};

export const FACE_OPTION: CliOption = {
  name: '--face',
  value: 'URL',
  multiple: true,
  required: true,
  help: 'face pictures (links), each detected first',
};

/** What to speak, for tts and clone. */
export const SCRIPT_OPTIONS: readonly CliOption[] = [
  { name: '--text', value: 'TEXT', help: 'the script (or --text-file)' },
  { name: '--text-file', value: 'FILE', help: 'a UTF-8 text file holding the script' },
  { name: '--rate', value: 'R', help: 'speaking rate 0% to 100% (default 50%, normal)' },
  { name: '--out', value: 'FILE.mp3', help: 'also save the audio here (relative to where you run it)' },
  JSON_OPTION,
  AGAIN_OPTION,
];
