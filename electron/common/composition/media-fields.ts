import {
  articleFor,
  describeFormat,
  formatLabel,
  UNSUPPORTED_PICTURES,
  type MediaFormat,
  type MediaKind,
} from './media-format';
import { isRealMedia, type MediaInfo } from './media-info';

/**
 * Which files each field of the service takes, in the interface document's words, and the one check
 * every reader of media applies before sending (pre-flight, tools, uploads, the sandbox). A field lists
 * the kinds it takes and, where the document names formats, those formats; a field with no format list
 * (a voice's audio URL, a clone sample) takes any sound ffprobe can read.
 */
export type MediaField =
  | 'element-image'
  | 'element-video'
  | 'avatar-media'
  | 'voice-audio'
  | 'swap-image'
  | 'swap-video'
  | 'lipsync-video'
  | 'lipsync-audio'
  | 'face-detect'
  | 'avatar-upload'
  | 'clone-sample'
  | 'live-face';

interface FieldRule {
  /** "the image", "the character image": how a reason names the field. */
  what: string;
  kinds: readonly MediaKind[];
  /** Null: any format of those kinds. */
  formats: readonly MediaFormat[] | null;
}

const PICTURES: readonly MediaFormat[] = ['jpeg', 'png', 'webp'];
const ELEMENT_VIDEOS: readonly MediaFormat[] = ['mp4', 'mov', 'avi'];

export const MEDIA_FIELDS: Readonly<Record<MediaField, FieldRule>> = {
  // Avatar video and talking avatar elements: "Images: .png .jpg .jpeg .webp; videos: .mp4 .mov .avi".
  'element-image': { what: 'an image element', kinds: ['image'], formats: PICTURES },
  'element-video': { what: 'a video element', kinds: ['video'], formats: ELEMENT_VIDEOS },
  'avatar-media': { what: 'an avatar', kinds: ['image', 'video'], formats: [...PICTURES, ...ELEMENT_VIDEOS] },
  'voice-audio': { what: 'a voice', kinds: ['audio'], formats: null },
  // Character swap: "Character image URL (PNG or JPEG)", "Source video URL (MP4)".
  'swap-image': { what: 'the character image', kinds: ['image'], formats: ['png', 'jpeg'] },
  'swap-video': { what: 'the source video', kinds: ['video'], formats: ['mp4'] },
  'lipsync-video': { what: 'the lip-sync video', kinds: ['video'], formats: null },
  'lipsync-audio': { what: 'the lip-sync audio', kinds: ['audio'], formats: null },
  // Face detection: "JPG, JPEG, PNG, BMP, WEBP" pictures, "MP4, MOV, AVI, WEBM" videos, and GIF.
  'face-detect': {
    what: 'the face detection input',
    kinds: ['image', 'video'],
    formats: ['jpeg', 'png', 'bmp', 'webp', 'gif', 'mp4', 'mov', 'avi', 'webm'],
  },
  // Upload avatar: "a video of about one minute" is recommended; a picture avatar is what talking avatars use.
  'avatar-upload': { what: 'an uploaded avatar', kinds: ['image', 'video'], formats: [...PICTURES, ...ELEMENT_VIDEOS] },
  'clone-sample': { what: 'a voice sample', kinds: ['audio'], formats: null },
  // Live face swap: sourceImage.path is "URL of a face image"; a video link gives the session no face.
  'live-face': { what: 'a live face swap face', kinds: ['image'], formats: PICTURES },
};

const KIND_WORDS: Record<MediaKind, string> = { image: 'a picture', video: 'a video', audio: 'a sound' };
const KIND_NOUNS: Record<MediaKind, string> = { image: 'picture', video: 'video', audio: 'sound' };

/** "a PNG or JPEG picture or an MP4 video": what a field takes, kind by kind. */
function takes(rule: FieldRule): string {
  return rule.kinds
    .map((kind) => {
      const formats = (rule.formats ?? []).filter((f) => kindOfFormat(f) === kind);
      return formats.length === 0
        ? KIND_WORDS[kind]
        : `${articleFor(formats[0])} ${namesOf(formats)} ${KIND_NOUNS[kind]}`;
    })
    .join(' or ');
}

function kindOfFormat(format: MediaFormat): MediaKind {
  const label = formatLabel(format);
  return label.endsWith('sound') ? 'audio' : label.endsWith('video') || format === 'gif' ? 'video' : 'image';
}

/** What a refusal needs to know of a file: null for one that is not readable media. */
export type MediaFacts = Pick<MediaInfo, 'kind' | 'format'> | null;

/**
 * A probe's answer as MediaFacts: ffprobe "reads" an empty or foreign file named x.png as a 0×0 picture,
 * so that is no media; a HEIC or AVIF picture is kept even when it could not be decoded, to be refused
 * by its name.
 */
export function readableMedia(info: MediaInfo | null | undefined): MediaInfo | null {
  return info && (isRealMedia(info) || UNSUPPORTED_PICTURES.has(info.format)) ? info : null;
}

/** Why a file cannot go into `field`, in words a person understands; null when it can. */
export function mediaRefusal(field: MediaField, info: MediaFacts): string | null {
  const rule = MEDIA_FIELDS[field];
  const wanted = rule.kinds.map((k) => KIND_WORDS[k]).join(' or ');
  if (!info)
    return `${capitalise(rule.what)} must be ${wanted}; this file is not a picture, video or sound the studio can read (it may be empty, cut short or of another type).`;
  if (UNSUPPORTED_PICTURES.has(info.format)) {
    return `${capitalise(describeFormat(info.format))} cannot be used for ${rule.what}: the service does not take ${formatLabel(info.format).replace(' picture', '')}. Save it as JPEG or PNG (most photo apps can export it) and use that.`;
  }
  const fitsKind = rule.kinds.includes(info.kind);
  const fitsFormat = rule.formats === null || rule.formats.includes(info.format);
  if (fitsKind && fitsFormat) return null;
  return `${capitalise(rule.what)} must be ${takes(rule)}; this is ${describeFormat(info.format)}${info.kind === 'video' && info.format === 'gif' ? ' (an animation)' : ''}.`;
}

/** "JPEG, PNG or WebP" */
export function namesOf(formats: readonly MediaFormat[]): string {
  const names = [...new Set(formats.map((f) => formatLabel(f).split(' ')[0]))];
  return names.length <= 1 ? names.join('') : `${names.slice(0, -1).join(', ')} or ${names.at(-1)}`;
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
