// The small parts of the Library's rows as plain elements. Each naive-ui button, tag or bar is a
// component with its own theme and style setup: a screen of rows held some 150 of them, and mounting
// them was most of the task that draws new rows (a search, a sort, a page scrolled into view), which
// took over 200 ms while a campaign's renders had the machine's cores. These look the same (row-parts.css, loaded by JobsTable.vue)
// at a fraction of the cost, and keep their roles for keyboards and screen readers.
import { h, type VNodeChild } from 'vue';

export type PartTone = 'default' | 'info' | 'success' | 'warning' | 'error';

export interface RowButtonOptions {
  /** 'quiet' has no fill until hovered (naive-ui's quaternary); 'filled' a soft fill (its secondary). */
  look?: 'quiet' | 'filled';
  disabled?: boolean;
  title?: string;
  /** Extra attributes, such as `data-transfer-action`. */
  attrs?: Record<string, string>;
  onClick: () => void;
}

/** A tiny button in a row; its click does not reach the row (which opens the job's details). */
export function rowButton(label: string, options: RowButtonOptions) {
  return h(
    'button',
    {
      type: 'button',
      class: ['row-button', `row-button--${options.look ?? 'quiet'}`],
      disabled: options.disabled,
      title: options.title,
      ...options.attrs,
      onClick: (e: MouseEvent) => {
        e.stopPropagation();
        options.onClick();
      },
    },
    label,
  );
}

/** A rounded label in the tone of a state; `attrs` such as its title. */
export function toneTag(label: string, tone: PartTone, attrs: Record<string, string> = {}) {
  return h('span', { class: ['row-tag', `row-tag--${tone}`], ...attrs }, label);
}

/** A thin progress bar; `label` is what a screen reader says of it. */
export function lineBar(percent: number, label: string, heightPx: number) {
  const value = Math.max(0, Math.min(100, Math.round(percent)));
  return h(
    'div',
    {
      class: 'row-bar',
      role: 'progressbar',
      'aria-valuemin': 0,
      'aria-valuemax': 100,
      'aria-valuenow': value,
      'aria-label': label,
      style: { height: `${heightPx}px` },
    },
    [h('div', { class: 'row-bar-fill', style: { width: `${value}%` } })],
  );
}

/** Content cut with an ellipsis at the cell's edge; a text's whole is its title (the browser's tooltip). */
export function cutText(content: VNodeChild) {
  return h('span', { class: 'row-cut', title: typeof content === 'string' ? content : undefined }, [content]);
}
