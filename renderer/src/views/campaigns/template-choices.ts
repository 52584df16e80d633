// What the Campaigns page offers as a campaign's template: the library's projects and the templates the
// user saved ("Save as template"), read again each time the list opens, so a template just saved is
// there at once without saving its project too.
import type { SelectGroupOption } from 'naive-ui';
import type { ProjectSummary } from '@common/bridge';
import type { TemplateSummary } from '@common/bridge/templates';

/** A saved template's value in the picker, apart from project ids. */
const TEMPLATE_PREFIX = 'template:';

/** The picker's groups: projects, then the user's own saved templates (the starters have no variables to fill). */
export function templateChoices(
  projects: readonly ProjectSummary[],
  templates: readonly TemplateSummary[],
): SelectGroupOption[] {
  const own = templates.filter((t) => !t.starter);
  const groups: SelectGroupOption[] = [
    {
      type: 'group',
      key: 'projects',
      label: 'Projects',
      children: projects.map((p) => ({ label: p.name, value: p.id })),
    },
  ];
  if (own.length > 0)
    groups.push({
      type: 'group',
      key: 'templates',
      label: 'Saved templates',
      children: own.map((t) => ({ label: t.name, value: `${TEMPLATE_PREFIX}${t.id}` })),
    });
  return groups;
}

/** The saved template a picker value names, or null for a project of the library. */
export function templateIdOf(value: string): string | null {
  return value.startsWith(TEMPLATE_PREFIX) ? value.slice(TEMPLATE_PREFIX.length) : null;
}
