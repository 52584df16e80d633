import { describe, expect, it, vi } from 'vitest';
import {
  AUDIO_PRESET,
  CAMERA_ENCODER,
  joinLiveChannel,
  startLocalCamera,
  uidOf,
  type RealtimeSdk,
  type RemoteUser,
} from '@/views/tools/faces/realtime';
import { until } from '../../wait';

const channel = {
  appId: 'app-1',
  channelId: 'ch-9',
  frontUserId: '1001',
  algorithmUserId: '2002',
  frontRtcToken: 'rtc-token',
};

/** agora-rtc-sdk-ng stood in for: records what the studio asks of it. */
function mockSdk(options: { cameraFails?: boolean } = {}) {
  const listeners: Record<string, (user: RemoteUser, mediaType: 'audio' | 'video') => void> = {};
  const track = (kind: string) => ({ kind, play: vi.fn(), stop: vi.fn(), close: vi.fn() });
  const mic = track('audio');
  const camera = track('video');
  const client = {
    on: vi.fn((event: string, listener: (user: RemoteUser, mediaType: 'audio' | 'video') => void) => {
      listeners[event] = listener;
    }),
    join: vi.fn(async () => 1001),
    publish: vi.fn(async () => undefined),
    subscribe: vi.fn(async () => undefined),
    leave: vi.fn(async () => undefined),
  };
  const sdk = {
    createClient: vi.fn(() => client),
    createCameraVideoTrack: vi.fn(async () => {
      if (options.cameraFails) throw Object.assign(new Error('Permission denied'), { name: 'NotAllowedError' });
      return camera;
    }),
    createMicrophoneAudioTrack: vi.fn(async () => mic),
  };
  return { sdk: sdk as unknown as RealtimeSdk, raw: sdk, client, mic, camera, listeners };
}

const views = () => ({ local: document.createElement('div'), processed: document.createElement('div') });

describe('live face swap real-time leg (SDK mocked)', () => {
  it("joins with the session's app id, channel, token and user id, and publishes camera and microphone at the recommended settings", async () => {
    const m = mockSdk();
    const v = views();
    await joinLiveChannel(m.sdk, channel, v);
    expect(m.client.join).toHaveBeenCalledWith('app-1', 'ch-9', 'rtc-token', 1001);
    expect(m.raw.createCameraVideoTrack).toHaveBeenCalledWith({
      encoderConfig: { width: 640, height: 480, frameRate: 20, bitrateMin: 5000, bitrateMax: 5000 },
    });
    expect(m.raw.createMicrophoneAudioTrack).toHaveBeenCalledWith({ encoderConfig: 'music_standard' });
    expect([CAMERA_ENCODER.bitrateMin, AUDIO_PRESET]).toEqual([5000, 'music_standard']);
    expect(m.client.publish).toHaveBeenCalledWith([m.mic, m.camera]);
    expect(m.camera.play).toHaveBeenCalledWith(v.local);
  });

  it("plays the processed stream of the algorithm user beside the local one, and nobody else's", async () => {
    const m = mockSdk();
    const v = views();
    await joinLiveChannel(m.sdk, channel, v);
    const processedVideo = { play: vi.fn(), stop: vi.fn() };
    const stranger = { uid: 3003, videoTrack: { play: vi.fn(), stop: vi.fn() } };
    m.listeners['user-published']?.(stranger, 'video');
    m.listeners['user-published']?.({ uid: 2002, videoTrack: processedVideo }, 'video');
    await until('the processed video to play', () => processedVideo.play.mock.calls.length > 0);
    expect(processedVideo.play).toHaveBeenCalledWith(v.processed);
    expect(m.client.subscribe).toHaveBeenCalledTimes(1);
    expect(stranger.videoTrack.play).not.toHaveBeenCalled();
  });

  it('leaves the channel and closes the tracks when stopped, and when the camera is refused', async () => {
    const m = mockSdk();
    const joined = await joinLiveChannel(m.sdk, channel, views());
    await joined.leave();
    expect([m.camera.close, m.mic.close, m.client.leave].map((f) => f.mock.calls.length)).toEqual([1, 1, 1]);

    const refused = mockSdk({ cameraFails: true });
    await expect(joinLiveChannel(refused.sdk, channel, views())).rejects.toThrow('Permission denied');
    expect(refused.mic.close).toHaveBeenCalled();
    expect(refused.client.leave).toHaveBeenCalled();
    expect(refused.client.publish).not.toHaveBeenCalled();
  });

  it('gives numeric user ids as numbers and others as strings', () => {
    expect([uidOf('1001'), uidOf('user-7'), uidOf('12345678901')]).toEqual([1001, 'user-7', '12345678901']);
  });

  it('shows only the local camera for a simulated session, at the same size and rate, and stops it', async () => {
    const stop = vi.fn();
    const stream = { getTracks: () => [{ stop }] } as unknown as MediaStream;
    const getUserMedia = vi.fn(async () => stream);
    // happy-dom has no MediaStream, so the element is stood in for too.
    const video = { srcObject: null as unknown, play: vi.fn(async () => undefined) } as unknown as HTMLVideoElement;
    const camera = await startLocalCamera(video, { getUserMedia });
    expect(getUserMedia).toHaveBeenCalledWith({ video: { width: 640, height: 480, frameRate: 20 }, audio: false });
    expect(video.srcObject).toBe(stream);
    await camera.leave();
    expect(stop).toHaveBeenCalled();
    expect(video.srcObject).toBeNull();
  });
});
