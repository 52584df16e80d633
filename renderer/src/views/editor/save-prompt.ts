import { h } from 'vue';
import { NButton, type useDialog } from 'naive-ui';
import type { LeaveChoice } from '@/composables/editor-files';

/** "Save changes to X?" with Save / Don't save / Cancel; closing the dialog any other way cancels. */
export function askSaveChanges(dialog: ReturnType<typeof useDialog>, name: string): Promise<LeaveChoice> {
  return new Promise((resolve) => {
    let answered = false;
    const answer = (choice: LeaveChoice) => () => {
      if (answered) return;
      answered = true;
      resolve(choice);
      d.destroy();
    };
    const d = dialog.warning({
      title: `Save changes to "${name}"?`,
      content: 'Your changes will be lost if you do not save them.',
      closable: true,
      maskClosable: true,
      onClose: answer('cancel'),
      onMaskClick: answer('cancel'),
      onEsc: answer('cancel'),
      onAfterLeave: answer('cancel'),
      action: () =>
        h('div', { class: 'save-prompt-actions', style: 'display:flex;gap:8px' }, [
          h(NButton, { size: 'small', onClick: answer('cancel') }, () => 'Cancel'),
          h(NButton, { size: 'small', onClick: answer('discard') }, () => "Don't save"),
          h(NButton, { size: 'small', type: 'primary', onClick: answer('save') }, () => 'Save'),
        ]),
    });
  });
}

/**
 * Reload, closing the tab or the desktop window: the browser (or the main process, which asks its own
 * question) is told not to unload while there are unsaved changes. One listener however often the
 * editor mounts, and it stays when the editor is not the workspace on screen.
 */
export function guardUnload(isDirty: () => boolean): void {
  unloadCheck = isDirty;
  window.addEventListener('beforeunload', onBeforeUnload);
}

let unloadCheck: () => boolean = () => false;

function onBeforeUnload(event: BeforeUnloadEvent): void {
  if (!unloadCheck()) return;
  event.preventDefault();
  // Older engines only ask when returnValue is set.
  event.returnValue = true;
}
