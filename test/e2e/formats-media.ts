// The formats journey's project and its measures: a 3-scene 16:9 project of flat-coloured media (so
// each element can be found in a frame by its colour), served over HTTP as a creator's links would be,
// and the boxes an element takes in a request body and in a frame of the local preview.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  createProject,
  DEFAULT_PLACEMENT,
  fromWire,
  presetStyle,
  type Box as OutputRect,
  type OutputSize,
  type Project,
  type SceneElement,
  type TextStyle,
} from '@common/composition';
import { makeImage, makeTone, makeVideo } from '../fixtures/composition/make-media';
import { nodeRasteriser } from '../unit/text/text-node';
import { colourBox, decode, type Box, type Picture } from './text-frames';

export const PHOTO_RGB: [number, number, number] = [255, 0, 255];
export const VIDEO_RGB: [number, number, number] = [32, 160, 80];
export const TITLE_BOX = '#1d4ed8';
export const LOWER_BOX = '#1d3557';
/** The sandbox cartoon's own backdrop, which fills the avatar's box. */
export const ANNA_RGB: [number, number, number] = [205, 226, 245];
export const SCENE_MS = 3000;

export interface MediaServer {
  server: Server;
  url: (name: string) => string;
}

/** A photo (4:3, magenta), a clip (16:9, green) and a 3 s voice, served with HEAD and GET. */
export async function serveMedia(dir: string): Promise<MediaServer> {
  const files: Record<string, { path: string; type: string }> = {
    'photo.png': {
      path: makeImage(join(dir, 'photo.png'), { colour: 'magenta', width: 1200, height: 900 }),
      type: 'image/png',
    },
    'clip.mp4': {
      path: makeVideo(join(dir, 'clip.mp4'), { colour: '0x20a050', width: 640, height: 360, seconds: 4 }),
      type: 'video/mp4',
    },
    'voice.mp3': { path: makeTone(join(dir, 'voice.mp3'), { seconds: 2.8 }), type: 'audio/mpeg' },
  };
  const server = createServer((req, res) => {
    const file = files[(req.url ?? '').split('?')[0].slice(1)];
    if (!file) return void res.writeHead(404).end();
    const bytes = readFileSync(file.path);
    res.writeHead(200, { 'content-type': file.type, 'content-length': bytes.length });
    res.end(req.method === 'HEAD' ? undefined : bytes);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return { server, url: (name) => `http://127.0.0.1:${port}/${name}` };
}

function boxed(style: TextStyle, colour: string): TextStyle {
  return {
    ...style,
    shadow: null,
    outline: null,
    box: { colour, opacity: 1, padding: style.box?.padding ?? 24, radius: 0 },
  };
}

/**
 * Scene 1: the photo and a boxed title; scene 2: the clip and a lower third; scene 3 is left for the
 * avatar, added in the page. Texts are measured by the host's rasteriser, as the editor measures them.
 */
export async function formatsProject(name: string, media: MediaServer): Promise<Project> {
  const base = createProject({ kind: 'avatar-video', output: '16:9-1080p', id: 'formats-journey', name });
  const rasteriser = nodeRasteriser();
  const title = boxed({ ...presetStyle(base, 'title'), content: 'Launch day' }, TITLE_BOX);
  const lower = boxed(presetStyle(base, 'lower-third'), LOWER_BOX);
  const [t, l] = await Promise.all([title, lower].map(async (s) => rasteriser.layout(s)));
  const text = (
    id: string,
    style: TextStyle,
    size: { width: number; height: number },
    x: number,
    y: number,
    role: SceneElement['role'],
  ): SceneElement => ({
    id,
    type: 'text',
    url: '',
    x,
    y,
    width: size.width,
    height: size.height,
    mediaSize: { width: size.width, height: size.height },
    layer: 2,
    text: style,
    role,
    name: role === 'title' ? 'Title' : 'Lower third',
  });
  const voice = { kind: 'url' as const, url: media.url('voice.mp3') };
  return {
    ...base,
    followVoice: false,
    scenes: [
      {
        id: 'scene-1',
        durationMs: SCENE_MS,
        voice,
        elements: [
          {
            id: 'el-1',
            type: 'image',
            url: media.url('photo.png'),
            x: 160,
            y: 300,
            width: 720,
            height: 540,
            mediaSize: { width: 1200, height: 900 },
            layer: 1,
            name: 'Photo',
          },
          text('el-2', title, t, Math.round((1920 - t.width) / 2), 120, 'title'),
        ],
      },
      {
        id: 'scene-2',
        durationMs: SCENE_MS,
        voice,
        elements: [
          {
            id: 'el-3',
            type: 'video',
            url: media.url('clip.mp4'),
            x: 1000,
            y: 300,
            width: 800,
            height: 450,
            mediaSize: { width: 640, height: 360 },
            layer: 1,
            name: 'Clip',
          },
          text('el-4', lower, l, 120, Math.round(1080 - 120 - l.height), 'lower-third'),
        ],
      },
      { id: 'scene-3', durationMs: SCENE_MS, voice, elements: [] },
    ],
  };
}

/** An element's box as a request body places it (the sandbox reads scale and offset the service's way). */
export function bodyBox(
  element: { scale_x?: number; scale_y?: number; offset_x?: number; offset_y?: number },
  output: OutputSize,
): OutputRect {
  const box = fromWire(element, output, DEFAULT_PLACEMENT);
  if (!box) throw new Error('an element without a placement');
  return box;
}

export function aspect(box: { width: number; height: number }): number {
  return box.width / box.height;
}

/** A frame's box (picture pixels, inclusive) as output pixels. */
export function rectOf(box: Box, picture: Picture, output: OutputSize): OutputRect {
  const k = output.width / picture.width;
  return {
    x: box.left * k,
    y: box.top * k,
    width: (box.right + 1 - box.left) * k,
    height: (box.bottom + 1 - box.top) * k,
  };
}

/** Where to look for an element in a frame: its body box and 24 output pixels round it. */
export function searchArea(box: OutputRect, picture: Picture, output: OutputSize): Box {
  const k = picture.width / output.width;
  return {
    left: Math.floor((box.x - 24) * k),
    top: Math.floor((box.y - 24) * k),
    right: Math.ceil((box.x + box.width + 24) * k),
    bottom: Math.ceil((box.y + box.height + 24) * k),
  };
}

/** The box a colour fills in a picture near `near` (output pixels), as output pixels; null when absent. */
export function foundBox(
  picture: Picture,
  colour: [number, number, number],
  near: OutputRect,
  output: OutputSize,
  distance = 40,
): OutputRect | null {
  const box = colourBox(picture, colour, distance, searchArea(near, picture, output));
  return box ? rectOf(box, picture, output) : null;
}

/** The aspect of a text's boxed picture as the host draws it at its natural size (the box colour's extent). */
export async function drawnTextAspect(
  style: TextStyle,
  size: { width: number; height: number },
  scratch: string,
): Promise<number> {
  const drawn = await nodeRasteriser().rasterise(style, {
    width: Math.round(size.width),
    height: Math.round(size.height),
  });
  const { writeFileSync } = await import('node:fs');
  writeFileSync(scratch, drawn.png);
  const picture = decode(scratch);
  const hexRgb = [1, 3, 5].map((i) => Number.parseInt(style.box!.colour.slice(i, i + 2), 16)) as [
    number,
    number,
    number,
  ];
  const box = colourBox(picture, hexRgb, 40);
  if (!box) throw new Error('the host drew no box');
  return (box.right + 1 - box.left) / (box.bottom + 1 - box.top);
}
