import { describe, expect, it } from 'vitest';
import { CatalogueService } from '../../../electron/services/catalogue/catalogue-service';
import { ServiceClient } from '../../../electron/services/client';
import { fail, ok, scriptedFetch, voice } from '../client/fake-fetch';

const model = (value: string, sort: number) => ({
  type: 1501,
  label: value,
  value,
  sort,
  resolutionList: [{ label: '720p', value: '720p', width: 1280, height: 720, unit_credit: 4 }],
});

function setup(script: Parameters<typeof scriptedFetch>[0]) {
  const fake = scriptedFetch(script);
  const client = new ServiceClient({
    baseUrl: 'http://svc.test',
    credentials: { kind: 'api-key', apiKey: 'k-123456' },
    fetch: fake.fetch,
    sleep: async () => undefined,
    maxAttempts: 1,
  });
  let now = 0;
  let connectionId = 'a';
  const catalogue = new CatalogueService({
    clock: { now: () => now },
    connections: { active: async () => ({ id: connectionId }), client: async () => client },
  });
  return { catalogue, seen: fake.seen, tick: (ms: number) => (now += ms), use: (id: string) => (connectionId = id) };
}

describe('CatalogueService', () => {
  it('answers lists through the active connection and keeps them for a minute', async () => {
    const t = setup([ok([voice]), ok([voice]), ok([voice])]);
    expect((await t.catalogue.voices()).map((v) => v.voice_id)).toEqual(['voice-1']);
    await t.catalogue.voices();
    expect(t.seen).toHaveLength(1);
    t.tick(61_000);
    await t.catalogue.voices();
    expect(t.seen).toHaveLength(2);
    t.use('b');
    await t.catalogue.voices();
    expect(t.seen).toHaveLength(3);
  });

  it('lets an ask made while the client is still starting join the load already under way', async () => {
    const fake = scriptedFetch([ok([voice]), ok([voice])]);
    const client = new ServiceClient({
      baseUrl: 'http://svc.test',
      credentials: { kind: 'api-key', apiKey: 'k-123456' },
      fetch: fake.fetch,
      sleep: async () => undefined,
      maxAttempts: 1,
    });
    let started: (c: ServiceClient) => void = () => undefined;
    const starting = new Promise<ServiceClient>((resolve) => (started = resolve));
    const catalogue = new CatalogueService({
      clock: { now: () => 0 },
      connections: { active: async () => ({ id: 'sandbox' }), client: () => starting },
    });
    const first = catalogue.voices();
    const second = catalogue.voices();
    started(client);
    expect(await second).toEqual(await first);
    expect(fake.seen).toHaveLength(1);
  });

  it('passes avatar filters and model types, highest sort first', async () => {
    const t = setup([ok([]), ok([model('low', 1), model('high', 9)])]);
    await t.catalogue.avatars({ from: 2, type: 1, page: 2, size: 10 });
    expect(t.seen[0].url).toBe('http://svc.test/api/open/v3/avatar/list?from=2&type=1&page=2&size=10');
    expect((await t.catalogue.models([2101, 1501])).map((m) => m.value)).toEqual(['high', 'low']);
    expect(t.seen[1].url).toContain('types%5B%5D=1501&types%5B%5D=2101');
  });

  it('keeps the model list ten minutes, until a refresh clears it', async () => {
    const t = setup([ok([model('m', 1)]), ok([model('m', 1)]), ok([model('m', 1)])]);
    await t.catalogue.models([2101]);
    t.tick(9 * 60_000);
    await t.catalogue.models([2101]);
    expect(t.seen).toHaveLength(1);
    t.catalogue.clear();
    await t.catalogue.models([2101]);
    expect(t.seen).toHaveLength(2);
    t.tick(10 * 60_000);
    await t.catalogue.models([2101]);
    expect(t.seen).toHaveLength(3);
  });

  it('does not remember a failure', async () => {
    const t = setup([fail(1102), ok([voice])]);
    await expect(t.catalogue.voices()).rejects.toMatchObject({ code: 1102 });
    expect(await t.catalogue.voices()).toHaveLength(1);
  });
});
