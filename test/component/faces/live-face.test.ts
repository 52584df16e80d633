import { describe, expect, it, vi } from 'vitest';
import { liveFaceFor } from '@/views/tools/faces/chosen-faces';
import { framesOf, type DetectedFace } from '@/views/tools/faces/face-frames';

const original = '214,196:298,196:256,234:256,274';
const inCrop = '64,60:148,60:106,98:106,138';

/** One detected face as the service answers it, with or without the crop ("Cropped faces"). */
function face(cropped: boolean): DetectedFace {
  const [frame] = framesOf({
    error_code: 0,
    error_msg: '',
    faces_obj: {
      '0': {
        landmarks: [
          [
            [214, 196],
            [298, 196],
            [256, 234],
            [256, 274],
            [230, 280],
            [282, 280],
          ],
        ],
        landmarks_str: [original],
        region: [[150, 136, 212, 212]],
        frame_time: 1.2,
        ...(cropped
          ? {
              crop_region: [[150, 136, 362, 348]],
              crop_landmarks: [inCrop],
              face_urls: ['https://cdn.example/faces/f0.jpg'],
            }
          : {}),
      },
    },
  } as never);
  return frame.faces[0];
}

describe('the face a live session is given', () => {
  const never = vi.fn(async () => {
    throw new Error('no upload expected');
  });

  it("is the crop of the face, with the crop's own landmarks, when faces were found in a video", async () => {
    const clip = { url: 'https://cdn.example/avatars/anna.mp4', kind: 'video' as const };
    expect(await liveFaceFor(clip, face(true), never)).toEqual({
      path: 'https://cdn.example/faces/f0.jpg',
      opts: inCrop,
    });
  });

  it('is never the video itself: without a crop it says what to do', async () => {
    const clip = { url: 'https://cdn.example/avatars/anna.mp4', kind: 'video' as const };
    expect(await liveFaceFor(clip, face(false), never)).toEqual({
      error: expect.stringContaining('tick "Cropped faces" and detect again'),
    });
  });

  it('is a picture link itself, with the landmarks detected in it', async () => {
    const photo = { url: 'https://cdn.example/dana.jpg', kind: 'image' as const };
    expect(await liveFaceFor(photo, face(true), never)).toEqual({
      path: 'https://cdn.example/dana.jpg',
      opts: original,
    });
  });

  it('uploads a local picture when the service made no crop of it', async () => {
    const upload = vi.fn(async () => 'https://storage.example/abc/dana.jpg');
    const local = { url: 'file:///grant/abc/dana.jpg', kind: 'image' as const };
    expect(await liveFaceFor(local, face(false), upload)).toEqual({
      path: 'https://storage.example/abc/dana.jpg',
      opts: original,
    });
    expect(upload).toHaveBeenCalledWith('file:///grant/abc/dana.jpg');
    // With a crop there is nothing to upload.
    expect(await liveFaceFor(local, face(true), never)).toEqual({
      path: 'https://cdn.example/faces/f0.jpg',
      opts: inCrop,
    });
  });
});
