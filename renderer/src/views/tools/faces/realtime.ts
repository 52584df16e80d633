import type { LiveChannel } from '@common/bridge/faces';

/**
 * The live face swap's real-time leg: join the session's channel, publish the camera with the settings
 * the interface recommends, and play the processed stream of the algorithm user. The SDK is passed in
 * (loaded on first use: a megabyte and a half the studio needs only for a real session; mocked in tests).
 */

/** The subset of agora-rtc-sdk-ng used here, so tests can stand in for it. */
export interface RealtimeTrack {
  play(element: HTMLElement): void;
  stop(): void;
}
export interface LocalTrack extends RealtimeTrack {
  close(): void;
}
export interface RemoteUser {
  uid: number | string;
  videoTrack?: RealtimeTrack;
  audioTrack?: { play(): void; stop(): void };
}
export interface RealtimeClient {
  on(event: 'user-published', listener: (user: RemoteUser, mediaType: 'audio' | 'video' | 'datachannel') => void): void;
  on(
    event: 'user-unpublished',
    listener: (user: RemoteUser, mediaType: 'audio' | 'video' | 'datachannel') => void,
  ): void;
  join(appId: string, channel: string, token: string | null, uid?: number | string | null): Promise<number | string>;
  publish(tracks: LocalTrack[]): Promise<void>;
  subscribe(user: RemoteUser, mediaType: 'audio' | 'video'): Promise<unknown>;
  leave(): Promise<void>;
}
export interface RealtimeSdk {
  createClient(config: { mode: 'rtc'; codec: 'vp8' }): RealtimeClient;
  createCameraVideoTrack(config: { encoderConfig: typeof CAMERA_ENCODER }): Promise<LocalTrack>;
  createMicrophoneAudioTrack(config: { encoderConfig: typeof AUDIO_PRESET }): Promise<LocalTrack>;
}

/** The interface's recommended tracks: video 640×480 at a fixed 20 fps, bitrate 5000 (min and max); audio music_standard. */
export const CAMERA_ENCODER = { width: 640, height: 480, frameRate: 20, bitrateMin: 5000, bitrateMax: 5000 } as const;
export const AUDIO_PRESET = 'music_standard' as const;

export const loadRealtimeSdk = async (): Promise<RealtimeSdk> =>
  (await import('agora-rtc-sdk-ng')).default as RealtimeSdk;

/** A user id the service gives as digits is the SDK's numeric uid; any other is a string uid. */
export const uidOf = (id: string): number | string => (/^\d{1,9}$/.test(id) ? Number(id) : id);

export interface Joined {
  leave(): Promise<void>;
}

/** Joins, publishes the camera and microphone into `local`, and plays the algorithm user's stream into `processed`. */
export async function joinLiveChannel(
  sdk: RealtimeSdk,
  channel: LiveChannel,
  views: { local: HTMLElement; processed: HTMLElement },
): Promise<Joined> {
  const client = sdk.createClient({ mode: 'rtc', codec: 'vp8' });
  const processedUid = String(channel.algorithmUserId);
  client.on('user-published', (user, mediaType) => {
    // Only the processed stream is shown; anyone else in the channel is not ours to play.
    if (String(user.uid) !== processedUid || (mediaType !== 'video' && mediaType !== 'audio')) return;
    void client.subscribe(user, mediaType).then(() => {
      if (mediaType === 'video') user.videoTrack?.play(views.processed);
      else user.audioTrack?.play();
    });
  });
  client.on('user-unpublished', (user, mediaType) => {
    if (String(user.uid) === processedUid && mediaType === 'video') user.videoTrack?.stop();
  });
  await client.join(channel.appId, channel.channelId, channel.frontRtcToken, uidOf(channel.frontUserId));
  const tracks: LocalTrack[] = [];
  try {
    tracks.push(await sdk.createMicrophoneAudioTrack({ encoderConfig: AUDIO_PRESET }));
    tracks.push(await sdk.createCameraVideoTrack({ encoderConfig: CAMERA_ENCODER }));
    tracks[1]?.play(views.local);
    await client.publish(tracks);
  } catch (error) {
    for (const track of tracks) track.close();
    await client.leave();
    throw error;
  }
  return {
    async leave() {
      for (const track of tracks) {
        track.stop();
        track.close();
      }
      await client.leave();
    },
  };
}

/** The sandbox has no media server: only the local camera is shown, at the same settings. */
export async function startLocalCamera(
  video: HTMLVideoElement,
  media: Pick<MediaDevices, 'getUserMedia'> = navigator.mediaDevices,
): Promise<Joined> {
  const stream = await media.getUserMedia({
    video: { width: CAMERA_ENCODER.width, height: CAMERA_ENCODER.height, frameRate: CAMERA_ENCODER.frameRate },
    audio: false,
  });
  video.srcObject = stream;
  await video.play().catch(() => undefined);
  return {
    async leave() {
      for (const track of stream.getTracks()) track.stop();
      video.srcObject = null;
    },
  };
}
