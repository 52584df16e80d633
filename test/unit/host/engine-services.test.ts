import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ServiceClient } from '../../../electron/services/client/service-client';
import { createEngineServices } from '../../../electron/services/host/engine-services';
import { createMemoryHostBase } from '../../../electron/services/host/memory-host';
import { appSettingsSpec } from '../../../electron/services/system/settings-store';

const repo = join(import.meta.dirname, '..', '..', '..');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

describe('createEngineServices', () => {
  it("applies the daily limit saved in the folder's settings, read at the create, and sends nothing past it", async () => {
    const base = createMemoryHostBase();
    const calls: string[] = [];
    const client = {
      call: async (endpoint: string) => {
        calls.push(endpoint);
        throw new Error(`no ${endpoint} in this test`);
      },
    } as unknown as ServiceClient;
    const { jobs } = createEngineServices(base, {
      route: () => ({
        active: async () => ({ id: 'sandbox', name: 'Sandbox', webhookUrl: null }),
        client: async () => client,
      }),
    });
    // Saved after the engine was built, as a user changes Settings while the studio runs.
    base
      .createStore(appSettingsSpec)
      .update((current) => ({ ...current, spending: { skipQuestionUnder: null, dailyLimits: { sandbox: 0 } } }));
    const submit = jobs.submit({
      kind: 'tts',
      body: { input_text: 'Past the limit.', voice_id: 'voice-1', rate: '50%' },
      confirmation: { by: 'script' },
    });
    await expect(submit).rejects.toMatchObject({
      code: 'spending-limit',
      message: expect.stringMatching(/Today's spending limit for "Sandbox"/),
    });
    // Only reads reached the service (the model list for a price); no create.
    expect(calls.filter((endpoint) => endpoint !== 'aiModelList' && endpoint !== 'quotaInfo')).toEqual([]);
    expect(jobs.list()).toEqual([]);
  });

  it('is the only place the studio builds its job engine, so no host can leave the money rules out', () => {
    const builders = sourceFiles(join(repo, 'electron'))
      .filter((file) => !file.includes(`${join('electron', 'emulator')}`))
      .filter((file) => /new JobEngine\(/.test(readFileSync(file, 'utf8')))
      .map((file) => relative(repo, file).split('\\').join('/'));
    expect(builders).toEqual(['electron/services/host/engine-services.ts']);
  });
});
