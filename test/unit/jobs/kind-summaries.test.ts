// What the Library says a job asked for: the file names a user recognises, their ends kept when long
// (a stored upload's name starts with its content hash, and the end is the user's own name).
import { describe, expect, it } from 'vitest';
import { JOB_KIND_REGISTRY } from '@common/jobs/kinds';

describe("a job's request summary", () => {
  it("keeps the end of a long file name, and reads a link's escapes", () => {
    const summary = JOB_KIND_REGISTRY['character-swap'].summary({
      mode: 'replace',
      image: 'http://127.0.0.1:4780/files/up-0123456789abcdef-7f3a9c21d4e5b6a8-character.jpg',
      video: 'http://127.0.0.1:4780/files/my%20clip.mp4',
      resolution: '720p',
    } as never);
    expect(summary).toBe('Character swap · replace · …f3a9c21d4e5b6a8-character.jpg onto my clip.mp4 · 720p');
  });
});
