import chardet from 'chardet';
import iconv from 'iconv-lite';

/** How a spreadsheet's text was written, as a person would name it. */
export interface TextEncoding {
  /** iconv-lite's name for it. */
  id: string;
  label: string;
}

const UTF8: TextEncoding = { id: 'utf8', label: 'UTF-8' };

/** Single-byte code pages spreadsheets are saved in (Excel's "CSV" by Windows locale, old Macs, Linux). */
const SINGLE_BYTE: Record<string, TextEncoding> = {
  // The WHATWG rule browsers follow: text labelled Latin-1 is read as Windows-1252, its superset.
  'ISO-8859-1': { id: 'windows-1252', label: 'Windows-1252 (Western European)' },
  'windows-1252': { id: 'windows-1252', label: 'Windows-1252 (Western European)' },
  'ISO-8859-2': { id: 'iso-8859-2', label: 'ISO-8859-2 (Central European)' },
  'windows-1250': { id: 'windows-1250', label: 'Windows-1250 (Central European)' },
  'windows-1251': { id: 'windows-1251', label: 'Windows-1251 (Cyrillic)' },
  'KOI8-R': { id: 'koi8-r', label: 'KOI8-R (Cyrillic)' },
  'ISO-8859-5': { id: 'iso-8859-5', label: 'ISO-8859-5 (Cyrillic)' },
  'ISO-8859-7': { id: 'iso-8859-7', label: 'ISO-8859-7 (Greek)' },
  'windows-1253': { id: 'windows-1253', label: 'Windows-1253 (Greek)' },
  'ISO-8859-9': { id: 'windows-1254', label: 'Windows-1254 (Turkish)' },
  'windows-1254': { id: 'windows-1254', label: 'Windows-1254 (Turkish)' },
  'windows-1257': { id: 'windows-1257', label: 'Windows-1257 (Baltic)' },
  'ISO-8859-15': { id: 'iso-8859-15', label: 'ISO-8859-15 (Western European)' },
};

/** The byte-order marks spreadsheets write, longest first. */
const BOMS: { bytes: number[]; encoding: TextEncoding }[] = [
  { bytes: [0xef, 0xbb, 0xbf], encoding: { id: 'utf8', label: 'UTF-8 with BOM' } },
  { bytes: [0xff, 0xfe], encoding: { id: 'utf16le', label: 'UTF-16 LE (Excel\u2019s Unicode Text)' } },
  { bytes: [0xfe, 0xff], encoding: { id: 'utf16be', label: 'UTF-16 BE' } },
];

export interface DetectedEncoding {
  encoding: TextEncoding;
  /** Bytes to skip before the text: the byte-order mark. */
  skip: number;
}

/**
 * The encoding of a spreadsheet's text from its first bytes: a byte-order mark where there is one;
 * UTF-16 without one from its zero bytes; UTF-8 when the sample is valid UTF-8 (plain ASCII is too);
 * otherwise the single-byte code page chardet rates best. Null when none fits: the caller refuses
 * the file rather than show garbled text.
 */
export function detectEncoding(sample: Uint8Array, sampleIsWhole: boolean): DetectedEncoding | null {
  for (const bom of BOMS) {
    if (bom.bytes.every((byte, i) => sample[i] === byte)) return { encoding: bom.encoding, skip: bom.bytes.length };
  }
  const utf16 = utf16WithoutBom(sample);
  if (utf16) return { encoding: utf16, skip: 0 };
  if (isUtf8(sample, sampleIsWhole)) return { encoding: UTF8, skip: 0 };
  for (const guess of chardet.analyse(sample)) {
    const known = SINGLE_BYTE[guess.name];
    if (known) return { encoding: known, skip: 0 };
  }
  return null;
}

/** Text in UTF-16 has a zero byte beside almost every Latin character; which side says the order. */
function utf16WithoutBom(sample: Uint8Array): TextEncoding | null {
  const pairs = Math.floor(Math.min(sample.length, 4096) / 2);
  if (pairs < 4) return null;
  let evenZeros = 0;
  let oddZeros = 0;
  for (let i = 0; i < pairs; i += 1) {
    if (sample[2 * i] === 0) evenZeros += 1;
    if (sample[2 * i + 1] === 0) oddZeros += 1;
  }
  if (oddZeros > pairs * 0.4 && evenZeros < pairs * 0.05) return { id: 'utf16le', label: 'UTF-16 LE' };
  if (evenZeros > pairs * 0.4 && oddZeros < pairs * 0.05) return { id: 'utf16be', label: 'UTF-16 BE' };
  return null;
}

/** Valid UTF-8; a sample cut inside a character at its end still counts when more follows. */
function isUtf8(sample: Uint8Array, sampleIsWhole: boolean): boolean {
  let end = sample.length;
  if (!sampleIsWhole) {
    // Drop an incomplete character at the cut: up to three trailing bytes of a started sequence.
    for (let back = 1; back <= 3 && end - back >= 0; back += 1) {
      const byte = sample[end - back];
      if ((byte & 0xc0) !== 0x80) {
        if (byte >= 0xc0) end -= back;
        break;
      }
    }
  }
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(sample.subarray(0, end));
    return true;
  } catch {
    return false;
  }
}

export function decoderFor(encoding: TextEncoding): { write(bytes: Buffer): string; end(): string | undefined } {
  return iconv.getDecoder(encoding.id, { stripBOM: false });
}
