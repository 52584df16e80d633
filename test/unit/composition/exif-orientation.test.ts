import { describe, expect, it } from 'vitest';
import { jpegOrientation, uprightFilter, isSideways } from '@common/composition/exif-orientation';
import { exifApp1, withOrientation } from './exif-jpeg';

// Smallest shape of a JPEG the reader walks: SOI, a JFIF APP0, then the start of the image data.
const jpeg = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x04, 0x4a, 0x46, 0xff, 0xda, 0x00, 0x02]);

describe('jpegOrientation reads the EXIF orientation of a JPEG', () => {
  it('reads every orientation in both byte orders', () => {
    for (const o of [1, 2, 3, 4, 5, 6, 7, 8]) {
      expect(jpegOrientation(withOrientation(jpeg, o, 'II'))).toBe(o);
      expect(jpegOrientation(withOrientation(jpeg, o, 'MM'))).toBe(o);
    }
  });

  it('finds the block after other segments, and says upright when there is none or it makes no sense', () => {
    const late = Buffer.concat([jpeg.subarray(0, 8), exifApp1(8), jpeg.subarray(8)]);
    expect(jpegOrientation(late)).toBe(8);
    expect(jpegOrientation(jpeg)).toBe(1);
    expect(jpegOrientation(withOrientation(jpeg, 9))).toBe(1);
    expect(jpegOrientation(Buffer.from('\x89PNG\r\n\x1a\n\0\0\0\rIHDR', 'latin1'))).toBe(1);
    // Cut short in the middle of its EXIF block: no guess.
    expect(jpegOrientation(withOrientation(jpeg, 6).subarray(0, 20))).toBe(1);
    expect(jpegOrientation(new Uint8Array())).toBe(1);
  });

  it('names the filter that stands each orientation upright', () => {
    expect(uprightFilter(1)).toBe('');
    expect(uprightFilter(6)).toBe('transpose=1');
    expect(uprightFilter(8)).toBe('transpose=2');
    expect(uprightFilter(3)).toBe('hflip,vflip');
    expect([5, 6, 7, 8].every((o) => isSideways(o as 5))).toBe(true);
    expect([1, 2, 3, 4].some((o) => isSideways(o as 1))).toBe(false);
  });
});
