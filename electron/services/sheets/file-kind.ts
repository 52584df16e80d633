/**
 * What a file chosen as a spreadsheet really is, from its first bytes: a workbook the studio reads, one
 * it names and refuses, or another kind of file altogether (a renamed MP3 read as text made 148 rows).
 */
export type SheetFileKind = { kind: 'text' } | { kind: 'xlsx' } | { kind: 'refused'; what: string; advice: string };

const SAVE_AS = 'save it as .xlsx or as CSV and choose that';

/** Signatures of files people pick by mistake, with what to call them. */
const OTHER_FILES: { test: (b: Uint8Array) => boolean; what: string }[] = [
  { test: (b) => starts(b, [0x25, 0x50, 0x44, 0x46]), what: 'a PDF document' },
  { test: (b) => starts(b, [0x89, 0x50, 0x4e, 0x47]), what: 'a PNG picture' },
  { test: (b) => starts(b, [0xff, 0xd8, 0xff]), what: 'a JPEG picture' },
  { test: (b) => starts(b, [0x47, 0x49, 0x46, 0x38]), what: 'a GIF picture' },
  {
    test: (b) =>
      starts(b, [0x49, 0x44, 0x33]) || /* an MPEG layer III frame */ (b[0] === 0xff && (b[1] & 0xe6) === 0xe2),
    what: 'an MP3 sound',
  },
  { test: (b) => starts(b, [0x52, 0x49, 0x46, 0x46]), what: 'a WAV sound or WebP picture' },
  { test: (b) => b.length > 8 && ascii(b, 4, 8) === 'ftyp', what: 'a video or phone photo (MP4, MOV or HEIC)' },
  { test: (b) => starts(b, [0x1a, 0x45, 0xdf, 0xa3]), what: 'a WebM or MKV video' },
  { test: (b) => starts(b, [0x4f, 0x67, 0x67, 0x53]), what: 'an Ogg sound' },
  { test: (b) => starts(b, [0x7f, 0x45, 0x4c, 0x46]) || starts(b, [0x4d, 0x5a]), what: 'a program' },
  { test: (b) => starts(b, [0x1f, 0x8b]), what: 'a gzip archive' },
];

export function sheetFileKind(head: Uint8Array): SheetFileKind {
  if (starts(head, [0x50, 0x4b, 0x03, 0x04])) {
    // An OpenDocument file stores its type uncompressed, first in the archive.
    const start = ascii(head, 0, Math.min(head.length, 200));
    if (start.includes('opendocument.spreadsheet'))
      return { kind: 'refused', what: 'an OpenDocument spreadsheet (.ods)', advice: SAVE_AS };
    if (start.includes('opendocument') || start.includes('word/'))
      return { kind: 'refused', what: 'a document, not a spreadsheet', advice: 'export the table as CSV or .xlsx' };
    return { kind: 'xlsx' };
  }
  if (starts(head, [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1])) {
    return { kind: 'refused', what: 'an Excel 97–2003 workbook (.xls)', advice: SAVE_AS };
  }
  // A byte-order mark opens text (Excel's Unicode Text starts FF FE), whatever follows it.
  if (starts(head, [0xff, 0xfe]) || starts(head, [0xfe, 0xff]) || starts(head, [0xef, 0xbb, 0xbf]))
    return { kind: 'text' };
  for (const other of OTHER_FILES) {
    if (other.test(head)) return { kind: 'refused', what: other.what, advice: 'choose a CSV, TSV or .xlsx file' };
  }
  return { kind: 'text' };
}

/**
 * Whether decoded text is binary data after all: NUL characters, or more than a few control
 * characters and undecodable bytes in the first 64 K characters. Tabs and line ends are text.
 */
export function looksBinary(text: string): boolean {
  const sample = text.slice(0, 65_536);
  if (sample.length === 0) return false;
  let odd = 0;
  for (let i = 0; i < sample.length; i += 1) {
    const code = sample.charCodeAt(i);
    if (code === 0) return true;
    if ((code < 0x20 && code !== 0x09 && code !== 0x0a && code !== 0x0d && code !== 0x0c) || code === 0xfffd) odd += 1;
  }
  return odd > Math.max(2, sample.length * 0.01);
}

function starts(bytes: Uint8Array, signature: number[]): boolean {
  return signature.every((byte, i) => bytes[i] === byte);
}

function ascii(bytes: Uint8Array, from: number, to: number): string {
  return String.fromCharCode(...bytes.subarray(from, to));
}
