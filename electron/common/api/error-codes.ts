/** Business codes of the envelope, with the meaning the interface document gives each of them. */
export const API_CODES = {
  1000: 'Success',
  1003: 'Parameter error or parameter cannot be empty',
  1004: 'Requires verification',
  1005: 'Operation too frequent',
  1006: 'Insufficient quota balance',
  1007: 'Number of faces to change exceeds the limit (8 for background change page)',
  1008: 'Content does not exist',
  1009: 'Permission denied',
  1010: 'Content cannot be operated',
  1011: 'Content has been operated',
  1013: 'Use audio in video',
  1014: 'Resource does not exist',
  1015: 'Video processing error / create video error',
  1016: 'Face swapping error',
  1017: 'Audio not created',
  1101: 'Invalid token or token expired',
  1102: 'Authorization/token cannot be empty',
  1103: 'Not paid or payment overdue',
  1104: 'Insufficient credit balance (live face swap reports this as insufficient quota)',
  1105: 'Avatar processing error',
  1108: 'Image processing error',
  1109: 'Account does not exist (avatar pages: create avatar video error)',
  1110: 'Audio processing error',
  1111: 'Avatar callback processing error',
  1112: 'Voice processing error',
  1200: 'Account blocked/banned',
  1201: 'Create audio processing error',
  1202: 'Lip sync same language out of range (same video cannot be lip synced in the same language more than once)',
  1203: 'Using video and audio (video must carry audio)',
  1204: 'Video duration exceeded (lip sync: over 60 s)',
  1205: 'Create video processing error',
  1206: 'Background change processing error',
  1207: 'Video size exceeded (lip sync: 300 MB)',
  1208: 'Video parsing error',
  1209: 'Video encoding format not supported',
  1210: 'Video fps exceeded (lip sync: 60 fps)',
  1211: 'Create lip sync error',
  1212: 'Sentiment analysis fails',
  1213: 'Requires subscription user',
  1214: 'liveAvatar in processing',
  1215: 'liveAvatar processing busy',
  1216: 'liveAvatar session does not exist',
  1217: 'liveAvatar callback error',
  1218: 'liveAvatar processing error',
  1219: 'liveAvatar closed',
  1220: 'liveAvatar upload avatar error',
  1221: 'Account not subscribed',
  1222: 'Resource already exists',
  1223: 'liveAvatar upload exceeded',
} as const;

export type ApiCode = keyof typeof API_CODES;

/** Named constants for the codes code paths branch on (the table above stays the source of meaning). */
export const Code = {
  Success: 1000,
  ParameterError: 1003,
  TooFrequent: 1005,
  InsufficientQuota: 1006,
  ContentNotFound: 1008,
  PermissionDenied: 1009,
  ContentNotOperable: 1010,
  ResourceNotFound: 1014,
  VideoProcessingError: 1015,
  InvalidToken: 1101,
  MissingToken: 1102,
  NotPaid: 1103,
  InsufficientCredit: 1104,
  AvatarProcessingError: 1105,
  AudioProcessingError: 1110,
  CreateAudioError: 1201,
  VideoDurationExceeded: 1204,
  BackgroundChangeError: 1206,
  VideoSizeExceeded: 1207,
  VideoParsingError: 1208,
  UnsupportedVideoFormat: 1209,
  VideoFpsExceeded: 1210,
  LiveInProcessing: 1214,
  LiveSessionNotFound: 1216,
  LiveClosed: 1219,
  ResourceExists: 1222,
} as const satisfies Record<string, ApiCode>;

export function isKnownCode(code: number): code is ApiCode {
  return Object.prototype.hasOwnProperty.call(API_CODES, code);
}

/** The documented meaning of a code, or a neutral text for codes the document does not list. */
export function describeCode(code: number): string {
  return isKnownCode(code) ? API_CODES[code] : `Unknown service code ${code}`;
}

/** Codes after which repeating the same request later may succeed (rate limiting). */
export function isRetryableCode(code: number): boolean {
  return code === Code.TooFrequent;
}

/** Codes that mean the credentials themselves were refused. */
export function isAuthCode(code: number): boolean {
  return code === Code.InvalidToken || code === Code.MissingToken;
}
