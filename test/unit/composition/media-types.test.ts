import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MEDIA_EXTENSIONS, fileExtension, isStillByExtension, mediaKindByExtension } from '@common/media-types';

const root = join(import.meta.dirname, '..', '..', '..');

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return /\.(ts|vue)$/.test(name) ? [path] : [];
  });
}

describe('media types: one list of extensions', () => {
  it('names the kind of a link or file by its extension, ignoring query and fragment', () => {
    expect(mediaKindByExtension('https://cdn.example/a/logo.PNG?sig=1#x')).toBe('image');
    expect(mediaKindByExtension('file:///tmp/clip.m4v')).toBe('video');
    expect(mediaKindByExtension('https://x/voice.flac')).toBe('audio');
    expect(mediaKindByExtension('https://x/page.html')).toBeNull();
    expect(mediaKindByExtension('https://x/folder.v2/noext')).toBeNull();
    expect(fileExtension('https://x/a.tar.gz?x=.png')).toBe('gz');
    expect(isStillByExtension('https://x/a.webp')).toBe(true);
    expect(isStillByExtension('https://x/a.gif')).toBe(false);
  });

  it('has no second list of media extensions in the studio sources', () => {
    const own = join(root, 'electron', 'common', 'media-types.ts');
    const files = [...sources(join(root, 'electron')), ...sources(join(root, 'renderer', 'src'))].filter(
      (f) => f !== own,
    );
    // A regex alternation or an array of two media extensions is a list of its own.
    const list = /(png\|jpe?g|mp4\|mov|mp3\|wav|\['png', 'jpg'|\['mp4', 'mov'|\['mp3', 'wav')/;
    const found = files.filter((f) => list.test(readFileSync(f, 'utf8'))).map((f) => relative(root, f));
    // The talking avatar's accepted extensions (rules.ts) and each field's accepted content formats
    // (media-fields.ts) are the interface's rules, not the studio's list of what it can open.
    expect(found).toEqual(['electron/common/composition/media-fields.ts', 'electron/common/composition/rules.ts']);
    expect(MEDIA_EXTENSIONS.image).toContain('png');
  });
});
