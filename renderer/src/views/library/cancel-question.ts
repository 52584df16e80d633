import { h } from 'vue';
import { NButton, type useDialog } from 'naive-ui';

/**
 * "Cancel 227 downloads?" before they go: what stops, what is thrown away and what stays. Answers true
 * only for the cancelling button; Esc, the close button and a click outside keep them downloading.
 */
export function askCancelMany(dialog: ReturnType<typeof useDialog>, count: number): Promise<boolean> {
  return new Promise((resolve) => {
    let answered = false;
    const answer = (cancel: boolean) => () => {
      if (answered) return;
      answered = true;
      resolve(cancel);
      d.destroy();
    };
    const d = dialog.warning({
      title: `Cancel ${count} downloads?`,
      content:
        'They stop now and their partly downloaded files are removed. Copies already saved stay on disk, and each result can be downloaded again while its link lasts.',
      closable: true,
      maskClosable: true,
      onClose: answer(false),
      onMaskClick: answer(false),
      onEsc: answer(false),
      onAfterLeave: answer(false),
      action: () =>
        h('div', { style: 'display:flex;gap:8px', 'data-testid': 'cancel-many' }, [
          h(NButton, { size: 'small', onClick: answer(false) }, () => 'Keep downloading'),
          h(NButton, { size: 'small', type: 'error', onClick: answer(true) }, () => `Cancel ${count} downloads`),
        ]),
    });
  });
}
