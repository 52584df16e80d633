// The sandbox publishes the price list its routes charge by (GET /__sandbox/prices): a create costs
// exactly what the list says, so a studio that quotes from the list quotes what the account pays.
import { describe, expect, it } from 'vitest';
import { call, dataOf, sample, SLOW, useSandbox } from './harness';

interface PriceList {
  flat: Record<string, number>;
  modelList: string[];
}

describe("the sandbox's price list", { timeout: SLOW }, () => {
  const sandbox = useSandbox();
  const prices = (headers: Record<string, string>) =>
    fetch(`${sandbox.em.url}/__sandbox/prices`, { headers }).then((r) => r.json());

  it('is answered only with the credentials, like the other control routes', async () => {
    expect(await prices({})).toMatchObject({ code: 1102 });
    expect(await prices({ 'x-api-key': 'not-the-key' })).toMatchObject({ code: 1101 });
  });

  it('lists the flat price of each create, and character swap as priced by the model list', async () => {
    const list = dataOf<PriceList>(await prices({ 'x-api-key': sandbox.em.apiKey }));
    expect(list).toEqual({
      flat: {
        audioCreate: 1,
        audioClone: 2,
        lipSync: 10,
        avatarCreate: 5,
        avatarVideoCreate: 10,
        talkingAvatarCreate: 10,
        liveCreate: 10,
      },
      modelList: ['characterSwapCreate'],
    });
  });

  it('is what a create is charged', async () => {
    const { em } = sandbox;
    const { flat } = dataOf<PriceList>(await prices({ 'x-api-key': em.apiKey }));
    let before = em.credits();
    dataOf(await call(em, 'audioCreate', { input_text: 'Priced from the list.', voice_id: 'sandbox_ava' }));
    expect(before - em.credits()).toBe(flat.audioCreate);

    before = em.credits();
    const scene = {
      width: 320,
      height: 180,
      duration: 500,
      voice: { voice_url: sample(em, 'voice-sandbox_ava.mp3') },
      ratio: '16:9',
      background: '#ffffff',
      avatarFrom: 2,
      elements: [
        {
          type: 'avatar',
          avatar_id: 'SandboxBen',
          scale_x: 0.5,
          scale_y: 1,
          offset_x: 80,
          offset_y: 0,
          layer_number: 1,
        },
      ],
    };
    dataOf(await call(em, 'avatarVideoCreate', { data: [scene] }));
    expect(before - em.credits()).toBe(flat.avatarVideoCreate);
  });
});
