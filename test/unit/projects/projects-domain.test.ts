import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { addScene, parseProject } from '@common/composition';
import { createMemoryHostBase } from '../../../electron/services/host/memory-host';
import { ProjectLibrary } from '../../../electron/services/projects/project-library';
import { createProjectsDomain } from '../../../electron/services/projects/projects-domain';
import type { PlatformAdapters } from '../../../electron/services/host/types';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'projects-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function domain(platform: PlatformAdapters = {}) {
  let n = 0;
  let clock = 1_000_000;
  const base = createMemoryHostBase({ dataDir: dir, platform });
  const library = new ProjectLibrary({
    dataDir: dir,
    createStore: base.createStore,
    newId: () => `id${++n}`,
    now: () => (clock += 1000),
  });
  return createProjectsDomain(base, library).handlers;
}

describe('projects domain', () => {
  it('creates from a preset, saves atomically, lists recent and opens by id', async () => {
    const h = domain();
    const created = await h['projects.create']({ kind: 'avatar-video', preset: '9:16', name: 'Promo' });
    expect(created.project).toMatchObject({ id: 'id1', name: 'Promo', output: { width: 1080, height: 1920 } });
    expect(created.summary.location).toBe('Project library');
    const file = join(dir, 'projects', 'id1.json');
    expect(parseProject(readFileSync(file, 'utf8'))).toMatchObject({ ok: true });

    const edited = addScene(created.project, { durationMs: 2000 });
    const summary = await h['projects.save'](edited);
    expect(summary).toMatchObject({ id: 'id1', scenes: 2, durationMs: 7000 });
    expect(readdirSync(join(dir, 'projects')).filter((n) => n.endsWith('.tmp'))).toEqual([]);

    expect((await h['projects.listRecent']()).map((s) => s.id)).toEqual(['id1']);
    const opened = await h['projects.open']('id1');
    expect(opened.project.scenes).toHaveLength(2);
    await expect(h['projects.open']('nope')).rejects.toThrow(/No project with id nope/);
  });

  it('names projects by id, also those no longer among the 30 recent ones (the Library names jobs by project)', async () => {
    const h = domain();
    await h['projects.create']({ kind: 'avatar-video', preset: '9:16', name: 'Oldest launch' });
    for (let i = 0; i < 30; i += 1)
      await h['projects.create']({ kind: 'avatar-video', preset: '9:16', name: `Later ${i}` });
    expect((await h['projects.listRecent']()).map((s) => s.id)).not.toContain('id1');
    expect(await h['projects.names'](['id1', 'id31', 'gone'])).toEqual({
      id1: 'Oldest launch',
      id31: 'Later 29',
      gone: null,
    });
  });

  it('imports JSON text as a new library project and explains bad input', async () => {
    const h = domain();
    const created = await h['projects.create']({ kind: 'talking-avatar', preset: '1:1' });
    const imported = await h['projects.importJson'](JSON.stringify(created.project));
    expect(imported.project.id).toBe('id2');
    await expect(h['projects.importJson']('{"schemaVersion":1,"kind":"x"}')).rejects.toThrow(
      /not a project the studio can open.*kind/s,
    );
    await expect(h['projects.importJson']('not json')).rejects.toThrow(/Not valid JSON/);
  });

  it('refuses a corrupt file with a clear error and leaves it untouched', async () => {
    const h = domain();
    await h['projects.create']({ kind: 'avatar-video', preset: '16:9-720p' });
    const file = join(dir, 'projects', 'id1.json');
    const broken = readFileSync(file, 'utf8').replace('"width": 1280', '"width": 99999');
    writeFileSync(file, broken);
    await expect(h['projects.open']('id1')).rejects.toThrow(
      /Cannot open id1\.json \(the file was left as it is\).*output\.width/s,
    );
    expect(readFileSync(file, 'utf8')).toBe(broken);
    expect(await h['projects.listRecent']()).toEqual([]);
  });

  it('keeps autosaves for recovery until the project is saved or the autosave discarded', async () => {
    const h = domain();
    const created = await h['projects.create']({ kind: 'avatar-video', preset: '4:5', name: 'Draft' });
    const changed = { ...created.project, name: 'Draft (edited)' };
    await h['projects.autosave'](changed);
    const recovery = await h['projects.listRecovery']();
    expect(recovery).toEqual([
      { id: 'id1', name: 'Draft (edited)', autosavedAt: expect.any(Number), savedAt: expect.any(Number) },
    ]);
    const restored = await h['projects.restoreRecovery']('id1');
    expect(restored).toMatchObject({ recovered: true, project: { name: 'Draft (edited)' } });
    await h['projects.save'](restored.project);
    expect(await h['projects.listRecovery']()).toEqual([]);

    await h['projects.autosave'](changed);
    await h['projects.discardRecovery']('id1');
    expect(await h['projects.listRecovery']()).toEqual([]);
    await expect(h['projects.restoreRecovery']('id1')).rejects.toThrow(/No unsaved work/);
  });

  it('uses native dialogs when the platform has them', async () => {
    const external = join(dir, 'elsewhere', 'mine.json');
    const h = domain({
      chooseSavePath: async () => external,
      chooseOpenPath: async () => external,
    });
    expect(await h['projects.capabilities']()).toEqual({ dialogs: true });
    const created = await h['projects.create']({ kind: 'avatar-video', preset: '1:1', name: 'A' });
    const copy = await h['projects.saveAs'](created.project, { name: 'B' });
    expect(copy?.project).toMatchObject({ id: 'id2', name: 'B' });
    expect(copy?.summary.location).toBe(external);
    const reopened = await h['projects.openDialog']();
    expect(reopened?.project).toMatchObject({ id: 'id2', name: 'B' });
    const cancelled = domain({ chooseOpenPath: async () => null, chooseSavePath: async () => null });
    expect(await cancelled['projects.openDialog']()).toBeNull();
  });

  it('without dialogs, save as stores a library copy and open dialog explains itself', async () => {
    const h = domain();
    expect(await h['projects.capabilities']()).toEqual({ dialogs: false });
    const created = await h['projects.create']({ kind: 'avatar-video', preset: '1:1' });
    const copy = await h['projects.saveAs'](created.project, { name: 'Copy' });
    expect(copy?.summary).toMatchObject({ id: 'id2', name: 'Copy', location: 'Project library' });
    await expect(h['projects.openDialog']()).rejects.toThrow(/no file dialogs; import the project JSON/);
    await h['projects.forget']('id2');
    expect((await h['projects.listRecent']()).map((s) => s.id)).toEqual(['id1']);
  });
});
