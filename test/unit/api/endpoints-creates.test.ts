import { describe, expect, it } from 'vitest';
import { ENDPOINTS, type EndpointName } from '../../../electron/common/api';
import { JOB_KINDS, JOB_KIND_REGISTRY } from '../../../electron/common/jobs/kinds';
import { requestModeOf } from '../../../electron/services/client/service-client';

describe('which operations create work (the endpoint table says)', () => {
  it('every operation states it, and every job kind creates through one that does', () => {
    for (const [name, spec] of Object.entries(ENDPOINTS)) expect(typeof spec.creates, name).toBe('boolean');
    for (const kind of JOB_KINDS) expect(ENDPOINTS[JOB_KIND_REGISTRY[kind].createEndpoint].creates, kind).toBe(true);
    const creating = Object.entries(ENDPOINTS)
      .filter(([, spec]) => spec.creates)
      .map(([name]) => name)
      .sort();
    expect(creating).toEqual([
      'audioClone',
      'audioCreate',
      'avatarCreate',
      'avatarVideoCreate',
      'backgroundChangeCreate',
      'characterSwapCreate',
      'lipSync',
      'liveClose',
      'liveCreate',
      'liveUpdate',
      'talkingAvatarCreate',
    ]);
  });

  it('the client treats exactly those as creates (never re-sent after an ambiguous failure)', () => {
    for (const [name, spec] of Object.entries(ENDPOINTS) as [EndpointName, (typeof ENDPOINTS)[EndpointName]][]) {
      expect(requestModeOf(name), name).toBe(spec.creates ? 'create' : 'read');
    }
  });
});
