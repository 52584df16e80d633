import type { AiModel } from '../../common/api';
import type { FaceSpec, Rgb } from './draw-face';

/** Official voices: each speaks its own preview through espeak-ng at first start. */
export const OFFICIAL_VOICES = [
  {
    _id: '65f0a0000000000000000001',
    voice_id: 'sandbox_ava',
    name: 'Ava',
    gender: 'Female',
    accent: 'American',
    useCase: 'Narration',
    description: 'Clear, even narrator',
    espeak: 'en-us+f3',
    pitch: 55,
  },
  {
    _id: '65f0a0000000000000000002',
    voice_id: 'sandbox_oliver',
    name: 'Oliver',
    gender: 'Male',
    accent: 'British',
    useCase: 'Conversational',
    description: 'Relaxed conversational voice',
    espeak: 'en-gb+m3',
    pitch: 45,
  },
  {
    _id: '65f0a0000000000000000003',
    voice_id: 'sandbox_isla',
    name: 'Isla',
    gender: 'Female',
    accent: 'Scottish',
    useCase: 'Storytelling',
    description: 'Warm storyteller',
    espeak: 'en-gb-scotland+f2',
    pitch: 60,
  },
  {
    _id: '65f0a0000000000000000004',
    voice_id: 'sandbox_marcus',
    name: 'Marcus',
    gender: 'Male',
    accent: 'American',
    useCase: 'News',
    description: 'Steady news reader',
    espeak: 'en-us+m1',
    pitch: 35,
  },
  {
    _id: '65f0a0000000000000000005',
    voice_id: 'sandbox_jade',
    name: 'Jade',
    gender: 'Female',
    accent: 'Caribbean',
    useCase: 'Social media',
    description: 'Bright and upbeat',
    espeak: 'en-029+f4',
    pitch: 65,
  },
  {
    _id: '65f0a0000000000000000006',
    voice_id: 'sandbox_hugo',
    name: 'Hugo',
    gender: 'Male',
    accent: 'British (RP)',
    useCase: 'Audiobook',
    description: 'Deep, measured reader',
    espeak: 'en-gb-x-rp+m7',
    pitch: 30,
  },
] as const;
export type OfficialVoice = (typeof OFFICIAL_VOICES)[number];

const SKIN: Record<string, Rgb> = { a: [241, 200, 170], b: [198, 140, 100], c: [120, 80, 55], d: [230, 180, 140] };

/** Presenter clips are 640x360; the face of each stays where these numbers put it in every frame. */
export const CLIP = { width: 640, height: 360, seconds: 4, fps: 25 } as const;
export const THUMB = { width: 320, height: 180 } as const;

export const OFFICIAL_AVATARS: ReadonlyArray<{
  _id: string;
  avatar_id: string;
  name: string;
  gender: string;
  type: 1 | 2;
  background: Rgb;
  face: FaceSpec;
}> = [
  {
    _id: '65f0b0000000000000000001',
    avatar_id: 'SandboxAnna',
    name: 'Anna (sandbox cartoon)',
    gender: 'female',
    type: 1,
    background: [205, 226, 245],
    face: {
      identity: 'anna',
      cx: 320,
      cy: 150,
      r: 78,
      skin: SKIN.a,
      hair: [120, 70, 30],
      shirt: [60, 110, 190],
      longHair: true,
    },
  },
  {
    _id: '65f0b0000000000000000002',
    avatar_id: 'SandboxBen',
    name: 'Ben (sandbox cartoon)',
    gender: 'male',
    type: 1,
    background: [214, 238, 214],
    face: {
      identity: 'ben',
      cx: 320,
      cy: 150,
      r: 76,
      skin: SKIN.b,
      hair: [40, 30, 25],
      shirt: [200, 90, 60],
      longHair: false,
    },
  },
  {
    _id: '65f0b0000000000000000003',
    avatar_id: 'SandboxCleo',
    name: 'Cleo (sandbox stream cartoon)',
    gender: 'female',
    type: 2,
    background: [232, 222, 245],
    face: {
      identity: 'cleo',
      cx: 320,
      cy: 150,
      r: 78,
      skin: SKIN.c,
      hair: [20, 20, 20],
      shirt: [240, 190, 60],
      longHair: true,
    },
  },
];

/** Still images with known faces: one portrait for live sessions and character swap, one group shot. */
export const FACE_IMAGES: ReadonlyArray<{
  file: string;
  width: number;
  height: number;
  background: Rgb;
  faces: FaceSpec[];
}> = [
  {
    file: 'sandbox-face.png',
    width: 512,
    height: 512,
    background: [250, 235, 215],
    faces: [
      {
        identity: 'dana',
        cx: 256,
        cy: 220,
        r: 120,
        skin: SKIN.d,
        hair: [90, 50, 20],
        shirt: [80, 160, 120],
        longHair: false,
      },
    ],
  },
  {
    file: 'sandbox-group.png',
    width: 640,
    height: 360,
    background: [225, 225, 235],
    faces: [OFFICIAL_AVATARS[1].face, OFFICIAL_AVATARS[0].face].map((f, i) => ({
      ...f,
      cx: i === 0 ? 180 : 460,
      cy: 160,
      r: 70,
    })),
  },
];

/** Other sample media without faces (a moving test pattern with a tone, a plain backdrop). */
export const PLAIN_SAMPLES = { motion: 'sandbox-motion.mp4', backdrop: 'sandbox-backdrop.png' } as const;

const resolutions = (unit: [number, number, number]) => [
  { label: '480P', value: '480p', width: 854, height: 480, unit_credit: unit[0] },
  { label: '720P', value: '720p', width: 1280, height: 720, unit_credit: unit[1] },
  { label: '1080P', value: '1080p', width: 1920, height: 1080, unit_credit: unit[2] },
];

const MODEL_BASE = {
  isPro: false,
  requiresPay: false,
  supportedLastFrame: false,
  supportedExtendPrompt: true,
  maxImageCount: 1,
  maxCount: 4,
} as const;

/** AI model list of the sandbox (prices are credits per 5-second unit). */
export const AI_MODELS: AiModel[] = [
  {
    ...MODEL_BASE,
    sort: 30,
    group: 'Sandbox',
    provider: 'Avatar Studio Sandbox',
    type: 1501,
    label: 'Sandbox Motion',
    value: 'sandbox-i2v-standard',
    description: 'Image to video (sandbox catalogue entry)',
    resolutionList: resolutions([4, 8, 12]),
    generate_audio: false,
    durationList: [5, 10],
  },
  {
    ...MODEL_BASE,
    sort: 20,
    group: 'Sandbox',
    provider: 'Avatar Studio Sandbox',
    type: 1501,
    label: 'Sandbox Motion Pro',
    value: 'sandbox-i2v-pro',
    isPro: true,
    supportedLastFrame: true,
    maxImageCount: 2,
    description: 'Image to video with last frame',
    resolutionList: resolutions([6, 12, 18]),
    generate_audio: true,
    durationList: [5, 10],
  },
  {
    ...MODEL_BASE,
    sort: 10,
    group: 'Sandbox',
    provider: 'Avatar Studio Sandbox',
    type: 1502,
    label: 'Sandbox Text Motion',
    value: 'sandbox-t2v-standard',
    maxImageCount: 0,
    description: 'Text to video (sandbox catalogue entry)',
    resolutionList: resolutions([5, 10, 15]).slice(0, 2),
    generate_audio: null,
    durationList: [5],
  },
  {
    ...MODEL_BASE,
    sort: 40,
    group: 'Character',
    provider: 'Avatar Studio Sandbox',
    type: 2101,
    label: 'Sandbox Character Swap',
    value: 'sandbox-character-swap',
    maxCount: 1,
    description: 'Character swap rendered by the sandbox compositor',
    resolutionList: resolutions([5, 10, 15]),
    generate_audio: false,
    durationList: [5, 10, 30, 60, 120],
  },
];
