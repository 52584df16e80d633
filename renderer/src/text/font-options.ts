import type { SelectGroupOption, SelectOption } from 'naive-ui';
import { computed, ref, type ComputedRef } from 'vue';
import { FONT_FAMILIES } from '@common/composition';
import { systemFontCatalogue, systemFontsCapped } from './page-rasteriser';

type FontOption = SelectOption & { value: string };

const systemFamilies = ref<string[] | null>(null);
/** The families of font files the user added (own-fonts.ts), listed in a group of their own. */
const ownFamilies = ref<string[]>([]);
const state = ref<'idle' | 'reading' | 'failed'>('idle');

/** Asks the host for this computer's fonts the first time a picker opens (or a style names one). */
export function readSystemFonts(): void {
  if (systemFamilies.value || state.value === 'reading') return;
  state.value = 'reading';
  systemFontCatalogue().then(
    (faces) => {
      const families = (own: boolean) => [
        ...new Set(faces.filter((f) => !FONT_FAMILIES.includes(f.family) && !!f.own === own).map((f) => f.family)),
      ];
      ownFamilies.value = families(true);
      systemFamilies.value = families(false);
      state.value = 'idle';
    },
    () => (state.value = 'failed'),
  );
}

/** A font file was added: the pickers list the catalogue as it now is. */
export function fontsAdded(): void {
  systemFamilies.value = null;
  state.value = 'idle';
  readSystemFonts();
}

/**
 * The font picker's list in groups: the studio's own fonts (every machine has them) and this
 * computer's (a project using one records the file, and another machine without it says so).
 */
export function useFontOptions(current: () => string): ComputedRef<SelectGroupOption[]> {
  if (!FONT_FAMILIES.includes(current())) readSystemFonts();
  return computed(() => {
    const studio = FONT_FAMILIES.map((f) => ({ label: f, value: f }));
    let system: FontOption[];
    if (systemFamilies.value)
      system = systemFamilies.value.length
        ? systemFamilies.value.map((f) => ({ label: f, value: f }))
        : [{ label: 'None the studio can draw', value: '\u0000none', disabled: true }];
    else if (state.value === 'failed') system = [{ label: 'Could not be read', value: '\u0000failed', disabled: true }];
    else system = [{ label: 'Reading this computer\u2019s fonts\u2026', value: '\u0000reading', disabled: true }];
    // A style naming a family not (or not yet) listed still shows it, so the picker never blanks the value.
    const name = current();
    const own = ownFamilies.value.map((f) => ({ label: f, value: f }));
    if (!FONT_FAMILIES.includes(name) && !systemFamilies.value?.includes(name) && !ownFamilies.value.includes(name))
      system = [{ label: `${name} (not on this computer)`, value: name, disabled: true }, ...system];
    // Said rather than silently missing: a font the user knows they have may be among the unread files.
    if (systemFamilies.value && systemFontsCapped.value)
      system = [...system, { label: 'Not every font was read', value: '\u0000capped', disabled: true }];
    return [
      { type: 'group', label: 'Studio fonts', key: 'studio', children: studio },
      ...(own.length ? [{ type: 'group' as const, label: 'Your fonts', key: 'own', children: own }] : []),
      { type: 'group', label: 'This computer\u2019s fonts', key: 'system', children: system },
    ];
  });
}
