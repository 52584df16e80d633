// Settings → Connections in Chromium: the sandbox's placement line, Check placement with its cost shown
// first, the check sent, and the convention it proves stored on the connection.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStudio, screenshot, type StudioSession } from './browser';
import { openEditor } from './editor-helpers';
import { paidAction } from './price';

describe('check placement in Chromium', () => {
  let studio: StudioSession;
  beforeAll(async () => {
    studio = await openStudio({ hash: '#/settings' });
  });
  afterAll(async () => {
    await studio?.close();
  });

  it('tells what it sends and costs, sends one check, and stores the measured placement', async () => {
    const { page } = studio;
    const row = page.getByTestId('connections-panel').locator('[data-connection="Sandbox"]');
    await row.getByText('Placement: offset of the centre, scale of the frame · known (the built-in sandbox)').waitFor();
    const dialog = page.getByRole('dialog');
    // The check is a paid talking avatar: Cancel on its cost charges nothing, Send charges what the studio recorded.
    const answerPlan = async (_: unknown, answer: 'send' | 'cancel') => {
      await expect
        .poll(() => dialog.getByTestId('placement-cost').textContent())
        .toMatch(/Cost: .*Balance: [\d,]+ credits/);
      await dialog.getByRole('button', { name: 'Send the check' }).waitFor();
      const said = (await dialog.getByTestId('placement-cost').textContent()) ?? '';
      if (answer === 'cancel') {
        await dialog.getByRole('button', { name: 'Cancel', exact: true }).click();
        await expect.poll(() => page.getByRole('dialog').count()).toBe(0);
      } else {
        await screenshot(page, 'placement-check-plan');
        await dialog.getByRole('button', { name: 'Send the check' }).click();
      }
      return said;
    };
    await paidAction(
      page,
      'talking-avatar',
      () => row.getByRole('button', { name: 'Check placement on Sandbox' }).click(),
      { cancelFirst: true, answer: answerPlan },
    );
    await expect
      .poll(() => dialog.getByTestId('placement-result').textContent(), { timeout: 90_000 })
      .toContain('the service places by offset of the centre, scale of the frame');
    await screenshot(page, 'placement-check-result');
    await dialog.getByRole('button', { name: 'Close', exact: true }).last().click();
    await expect.poll(() => page.getByRole('dialog').count()).toBe(0);
    await row.getByText(/Placement: offset of the centre, scale of the frame · measured/).waitFor();
    await screenshot(page, 'placement-connections');
    expect(studio.consoleErrors).toEqual([]);
  });
});

describe('the balance before a paid job, in Chromium', () => {
  let studio: StudioSession;
  afterAll(async () => {
    await studio?.close();
  });

  it('shows the active connection balance in the Create dialog and on the Voices panel', async () => {
    ({ studio } = await openEditor());
    const { page } = studio;
    await page.getByRole('button', { name: 'File menu' }).click();
    await page.getByText('New project…').click();
    await page.getByRole('radio', { name: /Avatar video/ }).click();
    await page.getByRole('textbox', { name: 'New project name' }).fill('Balance');
    await page.getByRole('button', { name: 'Create project' }).click();
    await page.getByRole('button', { name: 'Create video' }).click();
    const dialog = page.getByRole('dialog');
    await expect.poll(() => dialog.getByTestId('price-balance').textContent()).toMatch(/Balance: [\d,]+ credits/);
    await screenshot(page, 'balance-create-dialog');
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: 'Voices', exact: true }).click();
    await expect
      .poll(() => page.getByTestId('balance-before-job').first().textContent())
      .toMatch(/Balance: [\d,]+ credits/);
    await screenshot(page, 'balance-voices');
    expect(studio.consoleErrors).toEqual([]);
  });
});

describe('an unverified placement in Problems, in Chromium', () => {
  let studio: StudioSession;
  afterAll(async () => {
    await studio?.close();
  });

  it('warns in the editor while the active connection places by an assumed convention', async () => {
    ({ studio } = await openEditor());
    const { page } = studio;
    const problems = page.getByRole('region', { name: 'Problems' });
    await page.getByRole('button', { name: 'Settings', exact: true }).click();
    const panel = page.getByTestId('connections-panel');
    await panel.getByRole('button', { name: 'Add connection' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Connection name').fill('Production');
    await dialog.getByLabel('Base URL').fill('https://api.example.com');
    await dialog.getByRole('button', { name: 'Save' }).click();
    const row = panel.locator('[data-connection="Production"]');
    await row.getByText("assumed from the service's examples, not verified").waitFor();
    await row.locator('.n-radio').click();
    await page.getByRole('button', { name: 'Editor', exact: true }).click();
    await expect.poll(() => problems.textContent()).toContain('Placement on "Production" is not verified');
    await screenshot(page, 'placement-unverified-problem');
    // Back on the sandbox, whose placement is known: the warning goes.
    await page.getByRole('button', { name: 'Settings', exact: true }).click();
    await panel.locator('[data-connection="Sandbox"] .n-radio').click();
    await page.getByRole('button', { name: 'Editor', exact: true }).click();
    await expect.poll(() => problems.textContent()).not.toContain('Placement on');
  });
});
