import { join } from 'node:path';
import type { facesCalls } from '../../common/bridge/faces';
import type { HostBase, DomainModule, PlatformAdapters } from '../host/types';
import type { StudioServices } from '../host/studio-types';
import type { LocalGrants } from '../media/local-grants';
import type { MediaDomain } from '../media/media-domain';
import { FacesService } from './faces-service';
import type { EngineConnections } from '../jobs/engine-types';
import type { JobEngine } from '../jobs/engine';
import { LiveSessions, liveSessionsSpec, type LiveDeps } from './live-sessions';
import { takeVideoFrames, type VideoFramesDeps } from './video-frames';

interface FacesServices {
  faces: FacesService;
  live: LiveSessions;
  frames: VideoFramesDeps;
  /** The desktop app's permission for the camera and microphone; the web host's browser asks the user itself. */
  grantMedia?: PlatformAdapters['grantMedia'];
  /** Tells the user (a notice in the app) what was done on their behalf at start. */
  notify?: HostBase['notices']['raise'];
}

/**
 * A data folder's live sessions as every host builds them (the studio and the command line): each open
 * is refused by the engine unless confirmed and within the day's spending limit, what it cost is read
 * from the balance, and the sessions' charges count in the day's spending and price guide.
 */
export function createLiveSessions(
  deps: Pick<HostBase, 'createStore' | 'log'> &
    Pick<LiveDeps, 'origin' | 'probe'> & {
      connections: EngineConnections;
      engine: Pick<JobEngine, 'requireConfirmed' | 'countCharges'>;
    },
): LiveSessions {
  const { connections, engine } = deps;
  const live = new LiveSessions({
    store: deps.createStore(liveSessionsSpec),
    activeClient: async () => {
      const { id } = await connections.active();
      return { connectionId: id, client: await connections.client(id) };
    },
    client: (id) => connections.client(id),
    log: deps.log,
    now: () => Date.now(),
    origin: deps.origin,
    probe: deps.probe,
    requireConfirmed: (confirmation) => engine.requireConfirmed('live-session', 1, confirmation),
    balance: async (id) => (await (await connections.client(id)).call('quotaInfo', {})).credit,
  });
  // Sessions' charges guide their unpublished price and count in the day's spending.
  engine.countCharges((id) => live.charges(id));
  return live;
}

export function createFacesServices(
  base: Pick<HostBase, 'host' | 'createStore' | 'dataDir' | 'log' | 'notices' | 'platform'>,
  studio: Pick<StudioServices, 'target' | 'jobs'>,
  grants: LocalGrants,
  media: Pick<MediaDomain, 'probe' | 'frame'>,
): FacesServices {
  const activeClient = async () => {
    const { id } = await studio.target.active();
    return { connectionId: id, client: await studio.target.client(id) };
  };
  const live = createLiveSessions({
    createStore: base.createStore,
    log: base.log,
    connections: studio.target,
    engine: studio.jobs,
    // A command line's session is meant to outlive its command (live create, then live close).
    origin: base.host === 'cli' ? 'cli' : 'studio',
    probe: (link) => media.probe(link),
  });
  return {
    faces: new FacesService({
      activeClient,
      localPath: (reference) => grants.pathOf(reference),
      probe: (reference) => media.probe(reference),
    }),
    live,
    frames: {
      probe: (reference) => media.probe(reference),
      frame: (reference, atMs, width) => media.frame(reference, atMs, width),
      dir: join(base.dataDir, 'faces', 'frames'),
      grant: (path) => grants.grant(path),
    },
    grantMedia: base.platform.grantMedia,
    notify: (notice) => base.notices.raise(notice),
  };
}

/**
 * Face detection, analyze frames and live sessions. Sessions a crash left open are closed as the host
 * starts; this run's on dispose (quit, window closed), except a command line's, which outlive its run.
 */
export function createFacesDomain(
  services: FacesServices,
  { closeLeftOpen = true, closeOnQuit = true }: { closeLeftOpen?: boolean; closeOnQuit?: boolean } = {},
): DomainModule<typeof facesCalls> {
  const { faces, live, frames } = services;
  // A session left running keeps its media server busy (and may be billed): the user hears that it was
  // closed. A host reading the folder beside the studio that owns it leaves that studio's sessions alone.
  const leftOver = (closeLeftOpen ? live.closeLeftOpen() : Promise.resolve(0)).then((closed) => {
    if (closed === 0) return;
    services.notify?.({
      level: 'info',
      title: closed === 1 ? 'A live face swap session was closed' : `${closed} live face swap sessions were closed`,
      detail: `The studio stopped last time without closing ${closed === 1 ? 'it' : 'them'}; the service has closed ${closed === 1 ? 'it' : 'them'} now.`,
    });
  });
  let revokeCamera: (() => void) | undefined;
  const camera = (on: boolean) => {
    revokeCamera?.();
    revokeCamera = on ? services.grantMedia?.(['video', 'audio']) : undefined;
  };
  return {
    handlers: {
      'faces.detect': async (request) => faces.detect(request),
      'faces.analyze': async (request) => faces.analyze(request),
      'faces.videoFrames': async (request) => takeVideoFrames(frames, request),
      'live.create': async (chosen, options) => live.create(chosen, options),
      'live.update': async (id, chosen) => live.update(id, chosen),
      'live.close': async (id) => live.close(id),
      'live.sessions': async () => live.list(),
      'live.history': async () => live.history(),
      'live.join': async (id) => live.channel(id),
      'live.camera': async (on) => camera(on),
    },
    async dispose() {
      camera(false);
      await leftOver.catch(() => undefined);
      if (closeOnQuit) await live.closeAll();
    },
  };
}
