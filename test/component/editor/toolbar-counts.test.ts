import { describe, expect, it } from 'vitest';
import { mount } from '@vue/test-utils';
import EditorToolbar from '@/views/editor/EditorToolbar.vue';

const base = {
  name: 'P',
  dirty: false,
  canUndo: false,
  canRedo: false,
  scale: 1,
  fit: true,
  safeArea: false,
  snapping: true,
  filesUnavailable: null,
  recent: [],
  saving: false,
  autosavedAt: null,
};

function counts(errorCount: number, warningCount: number) {
  const wrapper = mount(EditorToolbar, { props: { ...base, errorCount, warningCount } });
  const status = wrapper.find('[role="status"]');
  const pill = (selector: string) => (wrapper.find(selector).exists() ? wrapper.find(selector).text() : null);
  return status.exists()
    ? { label: status.attributes('aria-label'), errors: pill('.errs'), warnings: pill('.warns') }
    : null;
}

describe('the toolbar counts problems by kind', () => {
  it('says how many errors and how many warnings there are', () => {
    expect(counts(2, 1)).toEqual({ label: 'Problems: 2 errors, 1 warning', errors: '2 errors', warnings: '1 warning' });
  });

  it('shows only warnings when nothing blocks sending, and nothing when all is well', () => {
    expect(counts(0, 3)).toEqual({ label: 'Problems: 0 errors, 3 warnings', errors: null, warnings: '3 warnings' });
    expect(counts(1, 0)).toEqual({ label: 'Problems: 1 error, 0 warnings', errors: '1 error', warnings: null });
    expect(counts(0, 0)).toBeNull();
  });
});
