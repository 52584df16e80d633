/** Tools the workspace will offer but this build does not have yet; each gets an honest tab. */
export const PLANNED_TOOLS: readonly { name: string; title: string; detail: string }[] = [];
