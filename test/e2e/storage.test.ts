// Settings → Storage in Chromium: add an S3-compatible storage (a real s3rver on loopback), store its key,
// test it end to end, and check that a wrong key is reported in words.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import S3rver from 's3rver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStudio, screenshot, type StudioSession } from './browser';

describe('storage settings in Chromium', () => {
  let studio: StudioSession;
  let server: S3rver;
  let endpoint = '';
  const dir = mkdtempSync(join(tmpdir(), 'studio-e2e-s3-'));

  beforeAll(async () => {
    server = new S3rver({
      port: 0,
      address: '127.0.0.1',
      silent: true,
      directory: dir,
      configureBuckets: [{ name: 'team-media', configs: [] }],
    });
    endpoint = `http://127.0.0.1:${(await server.run()).port}`;
    studio = await openStudio({ hash: '#/settings' });
  });
  afterAll(async () => {
    await studio?.close();
    await server?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('adds an S3 storage, tests it, and makes it the upload target', async () => {
    const { page } = studio;
    const panel = page.getByTestId('storage-panel');
    await panel.getByText('The built-in sandbox keeps uploaded files').waitFor();
    await panel.getByRole('button', { name: 'Add S3 storage' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Storage name').fill('Team bucket');
    await dialog.getByLabel('Endpoint', { exact: true }).fill(endpoint);
    await dialog.getByLabel('Bucket', { exact: true }).fill('TEAM media');
    await dialog.getByText('Path-style addresses').click();
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect
      .poll(() => dialog.getByRole('alert').textContent())
      .toContain('bucket: bucket must be 3-63 lower-case letters');
    await dialog.getByLabel('Bucket', { exact: true }).fill('team-media');
    await dialog.getByLabel('Access key id').fill('S3RVER');
    await dialog.getByLabel('Secret access key').fill('S3RVER');
    await dialog.getByRole('button', { name: 'Save' }).click();
    const row = panel.locator('[data-storage="Team bucket"]');
    await row.getByText('Access key stored').waitFor();
    await row.getByRole('button', { name: 'Test' }).click();
    await expect.poll(() => row.getByRole('status').textContent()).toContain('read it back through its presigned link');
    await row.locator('.n-radio').click();
    await expect.poll(() => row.getByRole('radio').isChecked()).toBe(true);
    await panel.scrollIntoViewIfNeeded();
    await expect.poll(() => panel.locator('[data-storage="Sandbox"] .n-radio--checked').count()).toBe(0);
    await screenshot(page, 'settings-storage');
    expect(await page.content()).not.toContain('S3RVER');
    expect(studio.consoleErrors).toEqual([]);
  });
});
