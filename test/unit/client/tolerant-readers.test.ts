import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ServiceClient, ServiceError } from '../../../electron/services/client';
import { json, scriptedFetch } from './fake-fetch';

const shapes = join(import.meta.dirname, '../../fixtures/service-shapes');
const answer = (name: string) => json(JSON.parse(readFileSync(join(shapes, `${name}.json`), 'utf8')));

function clientAnswering(name: string | Response) {
  const { fetch } = scriptedFetch([typeof name === 'string' ? answer(name) : name]);
  return new ServiceClient({
    baseUrl: 'http://service.test/',
    credentials: { kind: 'api-key', apiKey: 'k' },
    fetch,
    sleep: async () => undefined,
  });
}

describe('list and record shapes the service and its clients use', () => {
  it.each(['avatar-list-plain', 'avatar-list-result'])('reads the avatar list as %s', async (shape) => {
    const avatars = await clientAnswering(shape).call('avatarList', { from: 2 });
    expect(avatars.map((a) => a.avatar_id)).toEqual(['maya_office', 'leo_studio']);
  });

  it('reads a paged {result, count, page, size} voice list', async () => {
    const voices = await clientAnswering('voice-list-paged').call('voiceList', {});
    expect(voices.map((v) => v.voice_id)).toEqual(['en_ava']);
  });

  it.each(['avatar-create-object', 'avatar-create-list'])('reads avatar/create answered as %s', async (shape) => {
    const created = await clientAnswering(shape).call('avatarCreate', {
      url: 'https://cdn.example.com/uploads/presenter.mp4',
      avatar_id: 'user8f2a',
      name: 'My presenter',
      type: 1,
    });
    expect(created).toHaveLength(1);
    expect(created[0]).toMatchObject({ _id: '67c2d3e4f5a6b7c8d9e0f1a2', avatar_id: 'user8f2a', status: 1 });
  });

  it('reads a record answered as a one-item list', async () => {
    const info = await clientAnswering('video-info-one-item-list').call('videoInfo', {
      video_model_id: '68d3e4f5a6b7c8d9e0f1a2b3',
    });
    expect(info).toMatchObject({ _id: '68d3e4f5a6b7c8d9e0f1a2b3', video_status: 3 });
  });

  it('still names what is wrong when the answer is none of those shapes', async () => {
    const error = await clientAnswering(json({ code: 1000, msg: 'success', data: { result: 'none' } }))
      .call('avatarList', {})
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ServiceError);
    expect((error as ServiceError).message).toMatch(/data/);
  });
});
