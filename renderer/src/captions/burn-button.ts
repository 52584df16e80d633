import { h } from 'vue';
import { NButton, NDropdown } from 'naive-ui';
import type { DownloadView } from '@common/bridge';

const LABEL = 'Burn captions into a copy';

/** How a saved copy is named in the choice: its path, and whose copy it is. */
function copyLabel(copy: DownloadView): string {
  return `${copy.savedPath ?? copy.relativeName}${copy.origin === 'archive' ? ' (archive copy)' : ''}`;
}

/**
 * The Library row's CC: burns the captions into a copy of the saved file the user picks. One copy on
 * disk: the button names it and burns it. Several (the user's download and the archive's, or copies in
 * two folders): the button opens the list of them, so the copy burned is the one clicked.
 */
export function burnButton(copies: readonly DownloadView[], burn: (copy: DownloadView) => void) {
  const stop = (e: MouseEvent) => e.stopPropagation();
  if (copies.length === 1) {
    const [copy] = copies;
    return h(
      NButton,
      {
        size: 'tiny',
        quaternary: true,
        title: `Burn the project's captions into a copy of ${copyLabel(copy)}`,
        'aria-label': LABEL,
        onClick: (e: MouseEvent) => {
          stop(e);
          burn(copy);
        },
      },
      () => 'CC',
    );
  }
  const options = [
    {
      type: 'group',
      key: 'copies',
      label: 'Burn the captions into a copy of',
      children: copies.map((copy) => ({ key: copy.id, label: copyLabel(copy) })),
    },
  ];
  return h(
    NDropdown,
    {
      trigger: 'click',
      size: 'small',
      options,
      onSelect: (key: string) => {
        const copy = copies.find((c) => c.id === key);
        if (copy) burn(copy);
      },
    },
    () =>
      h(
        NButton,
        {
          size: 'tiny',
          quaternary: true,
          title: `Burn the project's captions into a copy of one of the ${copies.length} saved copies`,
          'aria-label': LABEL,
          'aria-haspopup': 'menu',
          onClick: stop,
        },
        () => 'CC ▾',
      ),
  );
}
