// Writes the five starter templates in resources/templates: each project (text measured with the
// studio's rasteriser), its backdrop pictures (drawn here from SVG with resvg, released under CC0 with
// the templates) and a thumbnail of its first scene rendered by the local preview renderer with the
// sandbox's avatar clips. Run: npx tsx test/tools/make-starter-templates.ts
import { createHash } from 'node:crypto';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Resvg } from '@resvg/resvg-wasm';
import {
  Project,
  SCHEMA_VERSION,
  type ElementRole,
  type Scene,
  type SceneElement,
} from '../../electron/common/composition/document';
import { withFontRecords } from '../../electron/common/composition/text-ops';
import { DEFAULT_TEXT_STYLE, type TextStyle } from '../../electron/common/composition/text-style';
import {
  mapMediaUrls,
  TEMPLATE_FORMAT,
  templateMediaFile,
  templateMediaReference,
  type TemplateFile,
} from '../../electron/common/composition/templates';
import { avatarClipFile, catalogueDirIn } from '../../electron/emulator/catalogue/catalogue';
import { createMediaToolkit } from '../../electron/services/media/toolkit';
import { createTextPictures } from '../../electron/services/text/text-domain';

const OUT = join(import.meta.dirname, '..', '..', 'resources', 'templates');
const scratch = join(tmpdir(), `starter-templates-${process.pid}`);
const pictures = createTextPictures(scratch, (path) => pathToFileURL(path).href);

type Style = Partial<TextStyle> & { content: string };
const base: TextStyle = { ...DEFAULT_TEXT_STYLE, shadow: null };

let counter = 0;
async function text(
  role: ElementRole,
  s: Style,
  at: { x: number; y: number; anchor?: 'left' | 'center' | 'right' },
  layer = 5,
): Promise<SceneElement> {
  const style: TextStyle = { ...base, ...s };
  const { width, height } = await pictures.rasteriser.layout(style);
  const x = at.anchor === 'center' ? at.x - width / 2 : at.anchor === 'right' ? at.x - width : at.x;
  return {
    id: `el-${++counter}`,
    type: 'text',
    url: '',
    role,
    name: s.content.split('\n')[0].slice(0, 40),
    x: Math.round(x),
    y: at.y,
    width,
    height,
    mediaSize: { width, height },
    layer,
    text: style,
  };
}
function picture(
  file: string,
  role: ElementRole,
  box: { x: number; y: number; width: number; height: number },
  size: { width: number; height: number },
  layer: number,
  name: string,
): SceneElement {
  return {
    id: `el-${++counter}`,
    type: 'image',
    url: templateMediaReference(file),
    role,
    name,
    ...box,
    mediaSize: size,
    layer,
    locked: role === 'backdrop',
  };
}
function avatar(avatarId: string, box: { x: number; y: number; width: number }, layer = 2): SceneElement {
  return {
    id: `el-${++counter}`,
    type: 'avatar',
    url: '',
    avatarId,
    avatarFrom: 2,
    name: avatarId.replace('Sandbox', ''),
    x: box.x,
    y: box.y,
    width: box.width,
    height: Math.round((box.width * 9) / 16),
    mediaSize: { width: 640, height: 360 },
    layer,
  };
}
function scene(
  n: number,
  name: string,
  script: string,
  voiceId: string,
  elements: SceneElement[],
  durationMs = 7000,
): Scene {
  // Each element on a layer of its own, in the order listed (the service may stack equal layers differently).
  return {
    id: `scene-${n}`,
    name,
    durationMs,
    voice: { kind: 'tts', text: script, voiceId, rate: '50%' },
    elements: elements.map((e, layer) => ({ ...e, layer })),
  };
}

const svgs: Record<string, { width: number; height: number; svg: string }> = {
  'vignette.png': {
    width: 1920,
    height: 1080,
    svg: `<svg xmlns="http://www.w3.org/2000/svg" width="1920" height="1080"><defs>
      <radialGradient id="v" cx="50%" cy="45%" r="75%"><stop offset="55%" stop-color="#000" stop-opacity="0"/><stop offset="100%" stop-color="#000" stop-opacity="0.55"/></radialGradient>
      <linearGradient id="b" x1="0" y1="0" x2="0" y2="1"><stop offset="60%" stop-color="#000" stop-opacity="0"/><stop offset="100%" stop-color="#000" stop-opacity="0.6"/></linearGradient></defs>
      <rect width="1920" height="1080" fill="url(#v)"/><rect width="1920" height="1080" fill="url(#b)"/></svg>`,
  },
  'glow.png': {
    width: 1920,
    height: 1080,
    svg: `<svg xmlns="http://www.w3.org/2000/svg" width="1920" height="1080"><defs>
      <radialGradient id="a"><stop offset="0%" stop-color="#6366f1" stop-opacity="0.55"/><stop offset="100%" stop-color="#6366f1" stop-opacity="0"/></radialGradient>
      <radialGradient id="c"><stop offset="0%" stop-color="#06b6d4" stop-opacity="0.35"/><stop offset="100%" stop-color="#06b6d4" stop-opacity="0"/></radialGradient>
      <pattern id="g" width="48" height="48" patternUnits="userSpaceOnUse"><circle cx="2" cy="2" r="1.6" fill="#fff" fill-opacity="0.07"/></pattern></defs>
      <rect width="1920" height="1080" fill="url(#g)"/><circle cx="1500" cy="260" r="700" fill="url(#a)"/><circle cx="250" cy="1000" r="620" fill="url(#c)"/></svg>`,
  },
  'app-window.png': {
    width: 1000,
    height: 625,
    svg: `<svg xmlns="http://www.w3.org/2000/svg" width="1000" height="625">
      <rect x="4" y="4" width="992" height="617" rx="22" fill="#ffffff"/>
      <rect x="4" y="4" width="992" height="56" rx="22" fill="#e2e8f0"/><rect x="4" y="40" width="992" height="20" fill="#e2e8f0"/>
      <circle cx="40" cy="32" r="9" fill="#f87171"/><circle cx="70" cy="32" r="9" fill="#fbbf24"/><circle cx="100" cy="32" r="9" fill="#34d399"/>
      <rect x="4" y="60" width="200" height="561" fill="#f1f5f9"/><rect x="28" y="92" width="150" height="14" rx="7" fill="#6366f1"/>
      <rect x="28" y="128" width="120" height="12" rx="6" fill="#cbd5e1"/><rect x="28" y="158" width="136" height="12" rx="6" fill="#cbd5e1"/><rect x="28" y="188" width="104" height="12" rx="6" fill="#cbd5e1"/>
      ${[0, 1, 2]
        .map(
          (
            c,
          ) => `<rect x="${236 + c * 250}" y="92" width="226" height="500" rx="14" fill="#f8fafc" stroke="#e2e8f0" stroke-width="2"/><rect x="${256 + c * 250}" y="112" width="110" height="14" rx="7" fill="#94a3b8"/>
      ${[0, 1, 2, 3]
        .slice(0, 4 - c)
        .map(
          (r) =>
            `<rect x="${252 + c * 250}" y="${146 + r * 104}" width="194" height="88" rx="10" fill="#ffffff" stroke="#e2e8f0" stroke-width="2"/><rect x="${268 + c * 250}" y="${164 + r * 104}" width="${120 - r * 14}" height="12" rx="6" fill="#334155"/><rect x="${268 + c * 250}" y="${188 + r * 104}" width="150" height="10" rx="5" fill="#cbd5e1"/><rect x="${268 + c * 250}" y="${208 + r * 104}" width="46" height="14" rx="7" fill="${['#a5b4fc', '#67e8f9', '#fcd34d'][c]}"/>`,
        )
        .join('')}`,
        )
        .join('')}
    </svg>`,
  },
  'news-bar.png': {
    width: 1920,
    height: 1080,
    svg: `<svg xmlns="http://www.w3.org/2000/svg" width="1920" height="1080"><defs>
      <linearGradient id="s" x1="0" y1="0" x2="0" y2="1"><stop offset="0%" stop-color="#000" stop-opacity="0"/><stop offset="100%" stop-color="#000" stop-opacity="0.65"/></linearGradient></defs>
      <rect y="700" width="1920" height="380" fill="url(#s)"/>
      <rect y="1010" width="1920" height="70" fill="#0b1220"/><rect y="1006" width="1920" height="4" fill="#dc2626"/>
      <rect y="1010" width="220" height="70" fill="#dc2626"/></svg>`,
  },
  'social-backdrop.png': {
    width: 1080,
    height: 1920,
    svg: `<svg xmlns="http://www.w3.org/2000/svg" width="1080" height="1920"><defs>
      <linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0%" stop-color="#7c3aed"/><stop offset="55%" stop-color="#db2777"/><stop offset="100%" stop-color="#f97316"/></linearGradient>
      <radialGradient id="h"><stop offset="0%" stop-color="#fff" stop-opacity="0.25"/><stop offset="100%" stop-color="#fff" stop-opacity="0"/></radialGradient></defs>
      <rect width="1080" height="1920" fill="url(#g)"/><circle cx="900" cy="260" r="420" fill="url(#h)"/><circle cx="120" cy="1700" r="520" fill="url(#h)"/>
      <rect x="36" y="632" width="1008" height="588" rx="28" fill="#000" fill-opacity="0.2"/></svg>`,
  },
  'slide.png': {
    width: 1920,
    height: 1080,
    svg: `<svg xmlns="http://www.w3.org/2000/svg" width="1920" height="1080"><defs>
      <pattern id="d" width="40" height="40" patternUnits="userSpaceOnUse"><circle cx="2" cy="2" r="1.5" fill="#0f172a" fill-opacity="0.06"/></pattern></defs>
      <rect width="1920" height="1080" fill="url(#d)"/><rect x="0" y="0" width="18" height="1080" fill="#2563eb"/>
      <rect x="140" y="1000" width="1640" height="2" fill="#0f172a" fill-opacity="0.12"/></svg>`,
  },
};

async function designs(): Promise<Array<{ folder: string; name: string; description: string; project: Project }>> {
  const W = 1920;
  const H = 1080;
  const frame = { x: 0, y: 0, width: W, height: H };
  const size = { width: W, height: H };
  const vignette = () => picture('vignette.png', 'backdrop', frame, size, 3, 'Vignette');
  const project = (
    id: string,
    name: string,
    output: { width: number; height: number },
    background: string,
    scenes: Scene[],
  ): Project =>
    withFontRecords(
      Project.parse({ schemaVersion: SCHEMA_VERSION, id, name, kind: 'avatar-video', output, background, scenes }),
    );

  const talking = project('talking-head', 'Talking head', size, '#0b1220', [
    scene(1, 'Welcome', 'Hi everyone, I am Jordan. Here is what the team shipped this week.', 'sandbox_ava', [
      avatar('SandboxAnna', { x: 0, y: 0, width: W }, 1),
      vignette(),
      await text(
        'lower-third',
        {
          content: 'Jordan Lee',
          fontSize: 60,
          align: 'left',
          box: { colour: '#1d4ed8', opacity: 1, padding: 22, radius: 6 },
        },
        { x: 110, y: 800 },
      ),
      await text(
        'lower-third',
        {
          content: 'Founder & CEO, Northwind',
          fontSize: 36,
          fontWeight: 400,
          align: 'left',
          box: { colour: '#0f172a', opacity: 0.9, padding: 18, radius: 6 },
        },
        { x: 110, y: 918 },
      ),
    ]),
    scene(
      2,
      'Highlights',
      'Three launches, two important fixes, and one big thank you to our customers.',
      'sandbox_ava',
      [
        avatar('SandboxAnna', { x: 0, y: 0, width: W }, 1),
        vignette(),
        await text(
          'title',
          {
            content: 'This week at Northwind',
            fontSize: 80,
            align: 'left',
            shadow: { colour: '#000000', opacity: 0.6, blur: 10, offsetX: 0, offsetY: 4 },
          },
          { x: 104, y: 770 },
        ),
        await text(
          'body',
          {
            content: '3 launches  ·  2 fixes  ·  1 big thank-you',
            fontSize: 42,
            fontWeight: 400,
            align: 'left',
            box: { colour: '#0f172a', opacity: 0.85, padding: 20, radius: 10 },
          },
          { x: 110, y: 890 },
        ),
      ],
    ),
  ]);

  const explainer = project('product-explainer', 'Product explainer', size, '#0f172a', [
    scene(
      1,
      'Hook',
      'Still juggling spreadsheets, chats and sticky notes to plan your work? There is a better way.',
      'sandbox_oliver',
      [
        picture('glow.png', 'backdrop', frame, size, 0, 'Glow'),
        await text(
          'body',
          { content: 'NEW  ·  FLOWBOARD 2.0', fontSize: 30, align: 'left', colour: '#a5b4fc' },
          { x: 120, y: 300 },
        ),
        await text(
          'title',
          { content: 'Plan less.\nShip more.', fontSize: 128, align: 'left', lineHeight: 1.05 },
          { x: 114, y: 360 },
        ),
        await text(
          'body',
          {
            content: 'One board for every project, deadline and teammate.',
            fontSize: 40,
            fontWeight: 400,
            align: 'left',
            colour: '#cbd5e1',
            wrapWidth: 760,
          },
          { x: 120, y: 670 },
        ),
        avatar('SandboxBen', { x: 1000, y: 300, width: 800 }),
      ],
    ),
    scene(
      2,
      'Product',
      'Flowboard puts every task on one board. Drag it, assign it, and watch the whole team move forward.',
      'sandbox_oliver',
      [
        picture('glow.png', 'backdrop', frame, size, 0, 'Glow'),
        picture(
          'app-window.png',
          'accent',
          { x: 110, y: 200, width: 1000, height: 625 },
          { width: 1000, height: 625 },
          1,
          'Product screen',
        ),
        await text('title', { content: 'Everything in one view', fontSize: 64, align: 'left' }, { x: 1180, y: 200 }),
        await text(
          'body',
          {
            content:
              '•  Boards, timelines and lists\n•  Live updates for the whole team\n•  Works with the tools you use',
            fontSize: 38,
            fontWeight: 400,
            align: 'left',
            colour: '#cbd5e1',
            lineHeight: 1.6,
          },
          { x: 1180, y: 300 },
        ),
        avatar('SandboxBen', { x: 1180, y: 620, width: 560 }),
      ],
    ),
    scene(3, 'Call to action', 'Try Flowboard free for thirty days. No credit card needed.', 'sandbox_oliver', [
      picture('glow.png', 'backdrop', frame, size, 0, 'Glow'),
      await text(
        'title',
        { content: 'Try it free for 30 days', fontSize: 104, align: 'center' },
        { x: W / 2, y: 330, anchor: 'center' },
      ),
      await text(
        'lower-third',
        {
          content: 'flowboard.app',
          fontSize: 52,
          align: 'center',
          box: { colour: '#4f46e5', opacity: 1, padding: 26, radius: 40 },
        },
        { x: W / 2, y: 520, anchor: 'center' },
      ),
      await text(
        'body',
        { content: 'No credit card needed', fontSize: 34, fontWeight: 400, align: 'center', colour: '#94a3b8' },
        { x: W / 2, y: 680, anchor: 'center' },
      ),
    ]),
  ]);

  const news = project('news-lower-third', 'Lower-third news', size, '#000000', [
    scene(
      1,
      'Headline',
      'Good evening. The city council has approved a new riverside park, with work starting this spring.',
      'sandbox_marcus',
      [
        avatar('SandboxBen', { x: 0, y: 0, width: W }, 1),
        picture('news-bar.png', 'accent', frame, size, 2, 'News graphics'),
        await text(
          'lower-third',
          {
            content: 'BREAKING',
            fontSize: 34,
            align: 'left',
            box: { colour: '#dc2626', opacity: 1, padding: 14, radius: 0 },
          },
          { x: 96, y: 772 },
        ),
        await text(
          'lower-third',
          {
            content: 'City council approves new riverside park',
            fontSize: 60,
            align: 'left',
            box: { colour: '#ffffff', opacity: 1, padding: 18, radius: 0 },
            colour: '#0b1220',
          },
          { x: 96, y: 838 },
        ),
        await text(
          'lower-third',
          {
            content: 'Sam Rivera  ·  Local affairs reporter',
            fontSize: 34,
            fontWeight: 400,
            align: 'left',
            box: { colour: '#0b1220', opacity: 0.92, padding: 12, radius: 0 },
          },
          { x: 96, y: 940 },
        ),
        await text('body', { content: 'LIVE', fontSize: 34, align: 'center' }, { x: 110, y: 1023, anchor: 'center' }),
        await text(
          'body',
          {
            content: 'Weather: clear skies tonight, 14°  ·  Traffic: bridge reopens at 6 am  ·  Sport: City win 2–1',
            fontSize: 30,
            fontWeight: 400,
            align: 'left',
            colour: '#e2e8f0',
          },
          { x: 250, y: 1027 },
        ),
        await text(
          'accent',
          {
            content: 'NEWS 24',
            fontSize: 34,
            align: 'center',
            box: { colour: '#dc2626', opacity: 1, padding: 14, radius: 4 },
          },
          { x: 1780, y: 60, anchor: 'center' },
        ),
      ],
      9000,
    ),
  ]);

  const V = { width: 1080, height: 1920 };
  const social = project('vertical-social', 'Vertical social (9:16)', V, '#111827', [
    scene(
      1,
      'Hook',
      'Three habits for better sleep. Number one: keep the same bedtime, even on weekends.',
      'sandbox_jade',
      [
        picture('social-backdrop.png', 'backdrop', { x: 0, y: 0, ...V }, V, 0, 'Backdrop'),
        await text(
          'title',
          {
            content: '3 habits for\nbetter sleep',
            fontSize: 118,
            align: 'center',
            lineHeight: 1.05,
            shadow: { colour: '#000000', opacity: 0.35, blur: 12, offsetX: 0, offsetY: 6 },
          },
          { x: 540, y: 190, anchor: 'center' },
        ),
        await text(
          'lower-third',
          {
            content: 'TIP 1 OF 3',
            fontSize: 38,
            align: 'center',
            box: { colour: '#111827', opacity: 0.9, padding: 18, radius: 32 },
          },
          { x: 540, y: 500, anchor: 'center' },
        ),
        avatar('SandboxCleo', { x: 60, y: 656, width: 960 }),
        await text(
          'body',
          {
            content: 'Keep the same bedtime —\neven on weekends.',
            fontSize: 60,
            align: 'center',
            outline: { colour: '#111827', width: 4 },
          },
          { x: 540, y: 1380, anchor: 'center' },
        ),
        await text(
          'body',
          { content: '@yourbrand', fontSize: 38, fontWeight: 400, align: 'center', colour: '#fde68a' },
          { x: 540, y: 1740, anchor: 'center' },
        ),
      ],
      6000,
    ),
  ]);

  const dark = '#0f172a';
  const training = project('training-slides', 'Training slides', size, '#f8fafc', [
    scene(
      1,
      'Title slide',
      'Welcome to module two. In the next five minutes you will learn how we handle customer data.',
      'sandbox_isla',
      [
        picture('slide.png', 'backdrop', frame, size, 0, 'Slide'),
        await text('body', { content: 'MODULE 2', fontSize: 34, align: 'left', colour: '#2563eb' }, { x: 140, y: 330 }),
        await text(
          'title',
          { content: 'Handling customer\ndata with care', fontSize: 96, align: 'left', colour: dark, lineHeight: 1.08 },
          { x: 136, y: 385 },
        ),
        await text(
          'body',
          {
            content: 'Customer Care Academy  ·  5 minutes',
            fontSize: 36,
            fontWeight: 400,
            align: 'left',
            colour: '#475569',
          },
          { x: 140, y: 640 },
        ),
        avatar('SandboxAnna', { x: 1140, y: 330, width: 660 }),
      ],
    ),
    scene(
      2,
      'Three rules',
      'Three rules. Collect only what you need. Store it in approved systems. And share it only with people who need it.',
      'sandbox_isla',
      [
        picture('slide.png', 'backdrop', frame, size, 0, 'Slide'),
        await text(
          'title',
          { content: 'Three rules to remember', fontSize: 72, align: 'left', colour: dark },
          { x: 140, y: 120 },
        ),
        await text(
          'body',
          {
            content:
              '1   Collect only what you need\n2   Store it in approved systems\n3   Share it on a need-to-know basis',
            fontSize: 48,
            fontWeight: 400,
            align: 'left',
            colour: '#334155',
            lineHeight: 1.7,
          },
          { x: 140, y: 280 },
        ),
        avatar('SandboxAnna', { x: 1240, y: 620, width: 560 }),
        await text(
          'body',
          { content: 'Customer Care Academy', fontSize: 26, fontWeight: 400, align: 'left', colour: '#64748b' },
          { x: 140, y: 1020 },
        ),
      ],
      9000,
    ),
    scene(
      3,
      'Key takeaway',
      'If you are unsure, ask your data protection lead before you share anything.',
      'sandbox_isla',
      [
        picture('slide.png', 'backdrop', frame, size, 0, 'Slide'),
        await text(
          'body',
          { content: 'KEY TAKEAWAY', fontSize: 34, align: 'left', colour: '#2563eb' },
          { x: 140, y: 300 },
        ),
        await text(
          'title',
          {
            content: 'When in doubt,\nask before you share.',
            fontSize: 88,
            align: 'left',
            colour: dark,
            lineHeight: 1.1,
          },
          { x: 136, y: 355 },
        ),
        await text(
          'lower-third',
          {
            content: 'Data protection lead: privacy@example.com',
            fontSize: 36,
            fontWeight: 400,
            align: 'left',
            box: { colour: '#2563eb', opacity: 1, padding: 20, radius: 8 },
          },
          { x: 140, y: 640 },
        ),
        avatar('SandboxAnna', { x: 1240, y: 620, width: 560 }),
      ],
    ),
  ]);

  return [
    {
      folder: 'talking-head',
      name: 'Talking head',
      description: 'A presenter full frame, with a name strap and a headline scene.',
      project: talking,
    },
    {
      folder: 'product-explainer',
      name: 'Product explainer',
      description: 'Hook, product screen and a call to action, with the presenter beside them.',
      project: explainer,
    },
    {
      folder: 'news-lower-third',
      name: 'Lower-third news',
      description: 'Newsroom graphics: breaking tag, headline strap, reporter name, ticker and channel bug.',
      project: news,
    },
    {
      folder: 'vertical-social',
      name: 'Vertical social (9:16)',
      description: 'A 1080×1920 short: bold hook, tip badge, presenter and a caption line.',
      project: social,
    },
    {
      folder: 'training-slides',
      name: 'Training slides',
      description: 'Title, content and takeaway slides with the presenter in the corner.',
      project: training,
    },
  ];
}

async function main(): Promise<void> {
  await pictures.rasteriser.rasterise({ ...base, content: 'x' }, { width: 8, height: 8 });
  const media = new Map<string, { bytes: Buffer; sha256: string }>();
  for (const [file, { svg }] of Object.entries(svgs)) {
    const image = new Resvg(svg).render();
    const bytes = Buffer.from(image.asPng());
    media.set(file, { bytes, sha256: createHash('sha256').update(bytes).digest('hex') });
  }
  const clips = catalogueDirIn(join(homedir(), '.cache', 'avatar-studio', 'sandbox-catalogue'));
  const toolkit = createMediaToolkit({ dataDir: scratch, resolve: { env: process.env } });
  try {
    for (const [i, design] of (await designs()).entries()) {
      const dir = join(OUT, design.folder);
      await rm(dir, { recursive: true, force: true });
      await mkdir(join(dir, 'media'), { recursive: true });
      const used = new Set<string>();
      mapMediaUrls(design.project, (url) => {
        const file = templateMediaFile(url);
        if (file) used.add(file);
        return url;
      });
      for (const file of used) await writeFile(join(dir, 'media', file), media.get(file)!.bytes);
      // The thumbnail: the first scene as the preview renderer draws it, media from this folder and the sandbox's clips.
      const local = mapMediaUrls(design.project, (url) =>
        templateMediaFile(url) ? pathToFileURL(join(dir, 'media', templateMediaFile(url)!)).href : url,
      );
      const sceneAlone = (n: number): Project => ({
        ...local,
        scenes: [local.scenes[n]].map((s) => ({
          ...s,
          voice: null,
          elements: s.elements.map((e) =>
            e.type === 'avatar' ? { ...e, url: pathToFileURL(join(clips, avatarClipFile(e.avatarId!))).href } : e,
          ),
        })),
      });
      const poster = join(scratch, `${design.folder}.jpg`);
      await toolkit.renderer.poster(await pictures.flatten(sceneAlone(0)), 1000, {
        outputPath: poster,
        width: design.project.output.width > design.project.output.height ? 640 : 360,
      });
      await writeFile(join(dir, 'thumbnail.jpg'), await readFile(poster));
      // REVIEW_DIR=folder: every scene at full size, to look at while designing.
      const review = process.env.REVIEW_DIR;
      for (let n = 0; review && n < local.scenes.length; n++) {
        await toolkit.renderer.poster(await pictures.flatten(sceneAlone(n)), 1000, {
          outputPath: join(review, `${design.folder}-${n + 1}.jpg`),
          width: design.project.output.width,
        });
      }
      const file: TemplateFile = {
        format: TEMPLATE_FORMAT,
        name: design.name,
        description: design.description,
        createdAt: Date.UTC(2026, 10, 24) + i,
        project: design.project,
        media: [...used].sort().map((f) => ({ file: f, sha256: media.get(f)!.sha256 })),
        thumbnail: 'thumbnail.jpg',
      };
      await writeFile(join(dir, 'template.json'), `${JSON.stringify(file, null, 2)}\n`);
      console.log(`${design.folder}: ${design.project.scenes.length} scene(s), ${used.size} picture(s)`);
    }
  } finally {
    await toolkit.dispose();
    await rm(scratch, { recursive: true, force: true });
  }
}

await main();
