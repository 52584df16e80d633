// The one statement of how the code is layered. The lint rule (layering.js) enforces it and
// docs/architecture.md shows it (layer-table.js writes the doc's table; a test keeps the two equal).
// It fails closed: a source file outside every folder listed here, and a sub-folder of
// electron/services not listed in SERVICE_FOLDERS, is itself a lint error.

/** Every import of ours is allowed (tests, doc scripts, tool configs). */
export const ANY = '*';

/**
 * The layers, each a folder (or, for `config`, the loose files at the top of the repository).
 * `imports`: the other layers it may import (its own is always allowed).
 * `refuses`: packages it may not use: 'node' (node: and Node's built-in modules), 'electron'.
 */
export const LAYERS = {
  common: {
    folder: 'electron/common',
    imports: [],
    refuses: ['node', 'electron'],
    about: 'Environment-free TypeScript: wire schemas, the bridge contract, the project document, job kinds.',
  },
  services: {
    folder: 'electron/services',
    imports: ['common'],
    refuses: ['electron'],
    about:
      'Plain Node domain services; collaborators come in through constructors. Sub-folders have their own list below.',
  },
  emulator: {
    folder: 'electron/emulator',
    imports: ['common', 'services'],
    refuses: ['electron'],
    about: 'The sandbox service: an HTTP server implementing the whole interface.',
  },
  web: {
    folder: 'electron/web',
    imports: ['common', 'services', 'emulator'],
    refuses: ['electron'],
    about: 'The web host (the studio in a browser on loopback); a composition root, so it starts the built-in sandbox.',
  },
  cli: {
    folder: 'electron/cli',
    imports: ['common', 'services', 'emulator', 'launch'],
    refuses: ['electron'],
    about:
      'The `studio` command; a composition root, so it starts or reaches the built-in sandbox. Its bin runs it from the bundle launch makes.',
  },
  main: {
    folder: 'electron/main',
    imports: ['common', 'services', 'emulator'],
    refuses: [],
    about: 'The Electron main process: the desktop composition root, windows, IPC, platform adapters.',
  },
  preload: {
    folder: 'electron/preload',
    imports: ['common'],
    refuses: ['node'],
    about: 'Builds window.studio from the bridge channel list (a sandboxed preload: no Node).',
  },
  launch: {
    folder: 'electron/launch',
    imports: [],
    refuses: [],
    about:
      'Plain scripts behind npm start, web, dist and postinstall, and the bundles of the web host and the command line; they run before anything is built.',
  },
  renderer: {
    folder: 'renderer',
    imports: ['common'],
    refuses: ['node', 'electron'],
    about: 'The Vue page; it reaches the host only through the bridge.',
  },
  test: {
    folder: 'test',
    imports: ANY,
    refuses: [],
    about: 'Unit, component and e2e tests, fixtures and benches; they may import any layer.',
  },
  docs: {
    folder: 'docs',
    imports: ANY,
    refuses: [],
    about: 'The documentation, and any script that derives a page from the code.',
  },
  lint: {
    folder: '.eslint-plugin-local',
    imports: [],
    refuses: [],
    about: 'These lint rules and the layer table itself.',
  },
  config: {
    folder: '',
    imports: ANY,
    refuses: [],
    about: 'The tool configs at the top of the repository (no folder: a new top-level folder is in no layer).',
  },
};

/**
 * The sub-folders of electron/services and the siblings each may import. `host` is the services'
 * own composition (domains.ts builds every domain), so the others may use only its face: the
 * shared contract (types.ts), the user-facing error (errors.ts) and the shape of the services the
 * domains share (studio-types.ts).
 */
export const SERVICE_FOLDERS = {
  client: { imports: ['net'], about: 'The typed HTTP client of the service, its errors and paged lookups.' },
  net: { imports: [], about: 'HTTP clients: a light one on undici, a fetch that refuses internal addresses.' },
  webhooks: { imports: [], about: 'Webhook signatures.' },
  sheets: { imports: [], about: 'Spreadsheets as users have them: CSV and TSV in any common encoding, .xlsx.' },
  store: { imports: ['host'], about: 'Record stores and vaults behind the host contract.' },
  log: { imports: ['host'], about: 'The file logger and secret redaction.' },
  projects: { imports: ['host'], about: 'The project library and its file primitives.' },
  // Finding the ffmpeg and ffprobe binaries (system/binaries.ts) belongs to system, beside the settings
  // that name them and the binary status: media uses them, and system no longer imports media back.
  media: { imports: ['host', 'net', 'system'], about: 'ffmpeg/ffprobe, local media, caches, link checks.' },
  system: { imports: ['host'], about: 'Settings, notices, progress, finding and checking the media binaries.' },
  storage: { imports: ['host', 'media', 'net'], about: 'Storage connections (S3, sandbox) and uploads.' },
  // Every domain below takes the shared services bag (StudioServices, host/studio-types.ts) and
  // submits paid work through the job engine, hence `jobs`.
  catalogue: { imports: ['client', 'host', 'jobs'], about: 'Avatars, voices and models of the service, with prices.' },
  avatars: { imports: ['client', 'host', 'jobs'], about: 'Avatar uploads and the uploaded list.' },
  tools: { imports: ['host', 'jobs'], about: 'Character swap and lip sync.' },
  text: { imports: ['host'], about: 'Text elements drawn as pictures (the one rasteriser) for previews and submit.' },
  connections: { imports: ['client', 'host', 'jobs', 'store'], about: 'Service connections and their credentials.' },
  faces: { imports: ['client', 'host', 'jobs', 'media'], about: 'Face detection, frames, live sessions.' },
  placement: {
    imports: ['catalogue', 'host', 'jobs', 'media', 'storage', 'system'],
    about: 'Checks where an avatar sits in a frame.',
  },
  // The one row engine of batches and campaigns, with its queue, money and rate in folders of their own.
  rows: {
    imports: ['client', 'host', 'jobs', 'projects'],
    about:
      'Campaigns and batches run row by row: the engine (engine/), rows on BullMQ workers (queue/), the money a row may spend (money/), and the Redis side of the request limiter with the pacer that lets rows under way go first (rate/).',
  },
  voices: {
    imports: ['catalogue', 'downloads', 'host', 'jobs', 'media', 'projects', 'rows', 'sheets', 'system'],
    about: 'Voice batches from spreadsheets (ffprobe measures saved files).',
  },
  downloads: {
    imports: ['client', 'host', 'jobs', 'media', 'net', 'projects', 'system'],
    about: 'The download queue and the archive.',
  },
  campaign: {
    imports: [
      'catalogue',
      'downloads',
      'host',
      'jobs',
      'media',
      'projects',
      'rows',
      'sheets',
      'storage',
      'text',
      'voices',
    ],
    about: 'Campaigns: a template and a spreadsheet become one video per row, checked, priced and resumable.',
  },
  jobs: {
    // The shape of the services several domains share (StudioServices) is host's face
    // (host/studio-types.ts), so no domain that takes it imports jobs back through it.
    imports: ['client', 'host', 'projects'],
    about: 'The job engine, ledger, reactor and polling.',
  },
  // The folder's one SQLite database of records that grow with the work: opening, schema steps,
  // setting an unreadable one aside, and the records in it: the job ledger (the LedgerStorage of jobs)
  // the uploader's links (the UploadRecords of storage), the download queue (the QueueRecord of downloads)
  // and the runs of campaigns and batches (the RunStores of rows).
  records: {
    imports: ['downloads', 'host', 'jobs', 'rows', 'storage'],
    about:
      "The folder's SQLite database of records: open, migrate, set aside; the job ledger, the upload links, the download queue, the runs and their imports.",
  },
  host: {
    imports: [
      'avatars',
      'campaign',
      'catalogue',
      'connections',
      'downloads',
      'faces',
      'jobs',
      'log',
      'media',
      'placement',
      'projects',
      'records',
      'rows',
      'sheets',
      'storage',
      'store',
      'system',
      'text',
      'tools',
      'voices',
      // The desktop app's and web host's callback receiver (connection-callbacks.ts).
      'webhooks',
    ],
    face: ['types', 'errors', 'studio-types'],
    about: 'The services composition: builds every domain, dispatches bridge calls.',
  },
};

const SERVICES = `${LAYERS.services.folder}/`;

/** Path segments of `path` (relative to the repository, `/`-separated). */
const segments = (path) => path.split('/').filter(Boolean);

/**
 * Where a repository-relative path sits: its layer, and inside electron/services its sub-folder and
 * the module's name within it. A path outside every layer has layer null. An import's target may
 * name a folder (`../emulator`), so with `target` a layer's own folder counts as inside it.
 */
export function placeOf(path, { target = false } = {}) {
  const parts = segments(path);
  let layer = null;
  let depth = -1;
  for (const [name, spec] of Object.entries(LAYERS)) {
    const folder = segments(spec.folder);
    const inside = folder.every((part, i) => parts[i] === part) && parts.length >= folder.length + (target ? 0 : 1);
    // The config layer holds only loose top-level files: a path with folders above it is elsewhere.
    const loose = folder.length > 0 || parts.length === 1;
    if (inside && loose && folder.length > depth) {
      layer = name;
      depth = folder.length;
    }
  }
  const below = layer === 'services' ? parts.slice(segments(SERVICES).length) : [];
  const looseFile = below.length === 1 && (!target || /\.[a-z]+$/.test(below[0]));
  return {
    layer,
    subFolder: below.length > 0 && !looseFile ? below[0] : null,
    // The module's name inside its sub-folder, without extension ("types" for host/types.ts).
    module: below.length > 1 ? below[1].replace(/\.[^.]+$/, '') : null,
    looseInServices: looseFile,
  };
}

/** The layers `layer` may import, its own included. */
export function importsOf(layer) {
  const spec = LAYERS[layer];
  return spec.imports === ANY ? Object.keys(LAYERS) : [layer, ...spec.imports];
}
