import { describe, expect, it, vi } from 'vitest';
import { defineComponent, h } from 'vue';
import { mount, flushPromises } from '@vue/test-utils';
import { NMessageProvider } from 'naive-ui';
import type { BinaryStatus } from '@common/bridge';
import MediaToolsCard from '@/views/settings/MediaToolsCard.vue';

const found: BinaryStatus = { name: 'ffmpeg', path: '/usr/bin/ffmpeg', source: 'path', version: '5.1.9', error: null };
const missing: BinaryStatus = {
  name: 'ffprobe',
  path: null,
  source: null,
  version: null,
  error:
    'ffprobe was not found. Looked in: Settings: not set; FFPROBE_BIN: not set; ffmpeg-static: not set; PATH: not set.',
};

function mountCard(save = vi.fn(async () => undefined), recheck = vi.fn(async () => undefined)) {
  const Host = defineComponent({
    setup: () => () =>
      h(NMessageProvider, null, {
        default: () =>
          h(MediaToolsCard, {
            binaries: [found, missing],
            settings: {
              ffmpegPath: null,
              ffprobePath: null,
              notifications: true,
              favouriteVoices: [],
              spending: { skipQuestionUnder: null, dailyLimits: {} },
            },
            checking: false,
            save,
            recheck,
          }),
      }),
  });
  return { wrapper: mount(Host), save, recheck };
}

describe('MediaToolsCard', () => {
  it('shows the binary in use with its path, source and version, and the clear error for a missing one', () => {
    const { wrapper } = mountCard();
    const ffmpeg = wrapper.find('[data-binary="ffmpeg"]');
    expect(ffmpeg.text()).toContain('In use · system PATH');
    expect(ffmpeg.text()).toContain('/usr/bin/ffmpeg');
    expect(ffmpeg.text()).toContain('5.1.9');
    const ffprobe = wrapper.find('[data-binary="ffprobe"]');
    expect(ffprobe.text()).toContain('Not found');
    expect(ffprobe.text()).toContain('FFPROBE_BIN');
  });

  it('saves trimmed paths (empty means: find automatically) and checks again', async () => {
    const { wrapper, save, recheck } = mountCard();
    const inputs = wrapper.findAll('input');
    await inputs[0].setValue('  /opt/ffmpeg/bin/ffmpeg ');
    const button = wrapper.findAll('button').find((b) => b.text() === 'Save paths')!;
    await button.trigger('click');
    await flushPromises();
    expect(save).toHaveBeenCalledWith({ ffmpegPath: '/opt/ffmpeg/bin/ffmpeg', ffprobePath: null });
    expect(recheck).toHaveBeenCalled();
  });
});
