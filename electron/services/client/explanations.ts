/**
 * What each business code means for the person using the studio, and what they can do about it.
 * Keys are every code in the service's error table; explainCode falls back for codes it does not know.
 */
export const codeExplanations: Readonly<Record<number, string>> = {
  1000: 'The service accepted the request.',
  1003: 'The service rejected a parameter (missing, empty or out of range). Check the fields of this request.',
  1004: 'The account needs verification before it can do this. Complete verification in the service dashboard.',
  1005: 'The service is rate-limiting this account. The studio waits and tries again; nothing needs to be done.',
  1006: 'The account has run out of quota. Top up or upgrade the plan, then try again.',
  1007: 'Too many faces to change in one request. Use an image or video with fewer faces.',
  1008: 'The item does not exist on the service (deleted, expired or a wrong id).',
  1009: 'The account is not allowed to do this. Check the plan and the key used by this connection.',
  1010: 'The service cannot operate on this item in its current state.',
  1011: 'This item has already been processed; it cannot be processed again.',
  1013: 'The audio is already used in a video; choose another audio file.',
  1014: 'A resource the request points to does not exist. Check the URLs and ids.',
  1015: 'The service failed while creating the video. Try again, or change the inputs if it keeps failing.',
  1016: 'The service failed while swapping faces. Try a clearer, frontal face image.',
  1017: 'The audio has not been created yet; wait for it to finish, then try again.',
  1101: 'The access token is invalid or expired. Check the connection credentials in Settings.',
  1102: 'No credentials were sent. Add an API key or client id and secret to this connection in Settings.',
  1103: 'The plan is unpaid or overdue. Settle the payment in the service dashboard.',
  1104: 'Not enough credits for this request. Top up credits, then try again.',
  1105: 'The service failed while processing the avatar. Try another source video.',
  1108: 'The service failed while processing an image. Try another image (PNG or JPEG).',
  1109: 'The account does not exist, or the service could not create the avatar video.',
  1110: 'The service failed while processing audio. Try another audio file.',
  1111: 'The service failed while handling the avatar callback. Try again later.',
  1112: 'The service failed while processing the voice. Try another voice sample.',
  1200: 'The account is blocked. Contact the service provider.',
  1201: 'The service failed while creating the audio. Try again, or shorten the text.',
  1202: 'This video has already been lip-synced in this language; the service allows it once.',
  1203: 'The video must carry an audio track for this request.',
  1204: 'The video is too long (lip sync accepts at most 60 seconds).',
  1205: 'The service failed while creating the video. Try again later.',
  1206: 'The service failed while changing the background.',
  1207: 'The video file is too large (lip sync accepts at most 300 MB).',
  1208: 'The service could not read the video. Re-encode it as a standard MP4 and try again.',
  1209: 'The video encoding is not supported. Re-encode it as H.264 MP4.',
  1210: 'The video frame rate is too high (at most 60 fps; below 25 fps works best).',
  1211: 'The service failed while creating the lip sync.',
  1212: 'The service could not analyse the sentiment of the text.',
  1213: 'This feature needs a subscription. Upgrade the plan to use it.',
  1214: 'The live avatar is still processing; wait for it to finish.',
  1215: 'The live avatar service is busy. Try again in a few minutes.',
  1216: 'The live avatar session no longer exists. Start a new one.',
  1217: 'The live avatar callback failed.',
  1218: 'The live avatar failed while processing.',
  1219: 'The live avatar session is closed. Start a new one.',
  1220: 'Uploading the live avatar failed. Check the avatar URL.',
  1221: 'The account has no subscription. Subscribe to use this feature.',
  1222: 'This resource already exists (for example an avatar id already in use). Choose another id.',
  1223: 'The live avatar upload limit is reached. Remove an avatar or upgrade the plan.',
};

/** The face detection endpoint's messages (error_code 1), matched loosely because wording may vary. */
const detectionExplanations: ReadonlyArray<[RegExp, string]> = [
  [/url.*or.*img|must be provided|missing/i, 'Give either an image/video URL or image data to detect faces in.'],
  [/malformed|invalid url/i, 'The media URL is not a valid address.'],
  [/download/i, 'The service could not download the media. Check that the URL is public and still valid.'],
  [/no face/i, 'No face was found. Use media where a face is at least 80×80 pixels and roughly frontal.'],
  [
    /type detection|detect.*type|media type/i,
    'The service could not tell what kind of media this is. Use JPG, PNG, WEBP, MP4, MOV, AVI or WEBM.',
  ],
  [/process/i, 'The service could not process the media. Try another file.'],
];

const analyzeExplanations: ReadonlyArray<[RegExp, string]> = [
  [/frame_urls.*required|must not be empty/i, 'Give at least one frame image URL to analyse.'],
  [/download/i, 'The service could not download a frame image. Check that the URLs are public and still valid.'],
];

export function explainCode(code: number): string {
  return codeExplanations[code] ?? `The service refused the request with an unlisted code (${code}).`;
}

export function explainDetection(message: string): string {
  return detectionExplanations.find(([pattern]) => pattern.test(message))?.[1] ?? 'Face detection failed.';
}

export function explainAnalyzeFrames(message: string): string {
  return analyzeExplanations.find(([pattern]) => pattern.test(message))?.[1] ?? 'Frame analysis failed.';
}

/**
 * Why a call to the service did not produce a usable answer.
 * - service: the service answered with an envelope whose code is not 1000 (or a detection error).
 * - http: an HTTP status outside 2xx without a readable envelope.
 * - network: the connection failed (refused, reset, dropped).
 * - timeout: no answer within the per-request time limit.
 * - malformed: the answer did not match the endpoint's schema.
 * - aborted: the caller cancelled.
 * - config: the connection cannot be used (no credentials, bad base URL).
 * - invalid: the request failed validation before anything was sent.
 */
export type ServiceErrorKind =
  'service' | 'http' | 'network' | 'timeout' | 'malformed' | 'aborted' | 'config' | 'invalid';

/** What explaining a failure needs of it (a ServiceError's init). */
export interface FailureFacts {
  kind: ServiceErrorKind;
  endpoint: string;
  httpStatus?: number;
  ambiguous?: boolean;
}

export function explainFailure(init: FailureFacts): string {
  switch (init.kind) {
    case 'service':
      return 'The service refused the request.';
    case 'http':
      if (init.httpStatus === 401 || init.httpStatus === 403)
        return 'The service rejected the credentials of this connection.';
      if (init.httpStatus === 404) return "The service has no such address. Check the connection's base URL.";
      if (init.httpStatus !== undefined && init.httpStatus >= 500) return 'The service had an internal problem.';
      return 'The service answered with an unexpected HTTP status.';
    case 'network':
      return init.ambiguous
        ? 'The connection dropped after the request was sent, so it is unknown whether the service received it.'
        : "Could not reach the service. Check the network and the connection's base URL.";
    case 'timeout':
      return 'The service did not answer in time.';
    case 'malformed':
      return 'The service answered with data the studio does not understand (it may be a different version or not this service).';
    case 'aborted':
      return 'The request was cancelled.';
    case 'config':
      return 'This connection cannot be used yet.';
    case 'invalid':
      return 'The request is not valid, so it was not sent.';
  }
}
