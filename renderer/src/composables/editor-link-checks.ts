import { computed, ref, shallowRef, watch, type ComputedRef, type Ref, type ShallowRef } from 'vue';
import { useDebounceFn } from '@vueuse/core';
import { linkProblems, linkUrls, type LinkReport, type Problem, type Project } from '@common/composition';
import { call } from '@/bridge';

/** Asks the host about links; `fresh` makes it ask every server again instead of reusing reports. */
export type CheckLinksCall = (urls: string[], fresh: boolean) => Promise<LinkReport[]>;

const bridgeCheckLinks: CheckLinksCall = (urls, fresh) => call('media.checkLinks', { urls, fresh });

export interface LinkChecks {
  reports: ShallowRef<ReadonlyMap<string, LinkReport>>;
  problems: ComputedRef<Problem[]>;
  checking: Ref<boolean>;
  /** Links of the project the host has not answered about yet. */
  unchecked: ComputedRef<number>;
  total: ComputedRef<number>;
  /** Why the last check could not run at all (the host is down), else null. */
  failure: Ref<string | null>;
  /** Checks every link of the project now; resolves with the link problems that follow. */
  check(fresh: boolean): Promise<Problem[]>;
}

/**
 * The pre-flight of the project's media links, kept beside the document: links are checked by the
 * host as they appear (reusing its recent reports), "Check links" and the Create dialog ask afresh.
 */
export function useLinkChecks(
  doc: () => Project,
  checkLinks: CheckLinksCall = bridgeCheckLinks,
  delayMs = 600,
): LinkChecks {
  const reports = shallowRef<ReadonlyMap<string, LinkReport>>(new Map());
  const checking = ref(false);
  const failure = ref<string | null>(null);
  const urls = computed(() => linkUrls(doc()));
  const problems = computed(() => linkProblems(doc(), reports.value));
  const unchecked = computed(() => urls.value.filter((u) => !reports.value.has(u)).length);
  let round = 0;

  async function check(fresh: boolean): Promise<Problem[]> {
    const list = urls.value;
    const mine = ++round;
    checking.value = true;
    try {
      const answers = list.length > 0 ? await checkLinks(list, fresh) : [];
      const next = new Map(reports.value);
      for (const report of answers) next.set(report.url, report);
      reports.value = next;
      failure.value = null;
    } catch (error) {
      failure.value = error instanceof Error ? error.message : String(error);
      throw error;
    } finally {
      if (mine === round) checking.value = false;
    }
    return problems.value;
  }

  const soon = useDebounceFn(() => check(false).catch(() => undefined), delayMs);
  watch(
    urls,
    (now) => {
      if (now.some((u) => !reports.value.has(u))) void soon();
    },
    { immediate: true },
  );

  return { reports, problems, checking, unchecked, total: computed(() => urls.value.length), failure, check };
}
