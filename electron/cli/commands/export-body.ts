import { exportBody } from '../../common/composition/export-body';
import { linkProblems, linkUrls, type LinkProblem } from '../../common/composition/link-checks';
import type { Project } from '../../common/composition/document';
import { ProjectKind } from '../../common/composition/document';
import { TEXT_LIMITS, type PlanTier } from '../../common/composition/rules';
import { DEFAULT_PLACEMENT, PlacementAnchor, PlacementScale } from '../../common/composition/placement';
import { EXIT, UsageError, flag, type CliCommand, type CliIo, type ParsedArgs } from '../command';
import { readProjectArg } from './project-file';
import { withStudio } from '../cli-host';

/**
 * `export-body <project.json> [--target avatar-video|talking-avatar]`: prints the request body the
 * studio would send, or every problem that stops it (exit 1). `--placement` and `--scale` choose the
 * placement convention the body is written in (default: the service's examples', centre and frame).
 * With --check-media every link is also fetched and probed, as the editor's pre-flight does, and each
 * broken one named (exit 1).
 */
export const exportBodyCommand: CliCommand = {
  name: 'export-body',
  summary: 'print the request body for a project, or every problem that blocks it',
  arguments: [{ name: 'PROJECT.json', help: 'a saved project file', required: true }],
  options: [
    {
      name: '--target',
      value: 'KIND',
      choices: ['avatar-video', 'talking-avatar'],
      help: "the kind of request to write (default: the project's own)",
    },
    { name: '--plan', value: 'PLAN', choices: ['pro', 'pro-max', 'business'], help: 'the plan whose limits apply' },
    { name: '--webhook', value: 'URL', help: 'the callback address put in the body' },
    {
      name: '--placement',
      value: 'ANCHOR',
      choices: PlacementAnchor.options,
      help: 'offsets place an element by its centre or top-left corner (default centre)',
    },
    {
      name: '--scale',
      value: 'OF',
      choices: PlacementScale.options,
      help: "scales are of the frame or of the element's own size (default frame)",
    },
    { name: '--check-media', help: 'also fetch and probe every link, naming each broken one' },
    { name: '--json', help: 'the body is JSON either way; with --json a refusal is JSON too' },
  ],
  async run(args, io) {
    const { project } = await readProjectArg(args, io);
    const targetFlag = flag(args, '--target');
    const target = targetFlag === undefined ? undefined : ProjectKind.safeParse(targetFlag);
    if (target && !target.success)
      throw new UsageError(`--target must be avatar-video or talking-avatar (got "${targetFlag}")`);
    const planFlag = flag(args, '--plan');
    if (planFlag !== undefined && !(planFlag in TEXT_LIMITS))
      throw new UsageError(`--plan must be pro, pro-max or business (got "${planFlag}")`);

    const anchor = PlacementAnchor.safeParse(flag(args, '--placement') ?? DEFAULT_PLACEMENT.anchor);
    if (!anchor.success)
      throw new UsageError(`--placement must be centre or top-left (got "${flag(args, '--placement')}")`);
    const scale = PlacementScale.safeParse(flag(args, '--scale') ?? DEFAULT_PLACEMENT.scale);
    if (!scale.success) throw new UsageError(`--scale must be frame or element (got "${flag(args, '--scale')}")`);
    const placement = { anchor: anchor.data, scale: scale.data };
    const result = exportBody(project, {
      target: target?.data,
      plan: planFlag as PlanTier | undefined,
      webhookUrl: flag(args, '--webhook'),
      placement,
    });
    const links = args.flags['--check-media'] === true ? await checkMedia(project, args, io) : [];
    const broken = links.filter((p) => p.level === 'error');
    for (const problem of links)
      io.err(`  ${problem.level === 'error' ? 'error  ' : 'warning'}  ${problem.message}  ${problem.url}`);
    if (broken.length > 0) {
      io.err(`${broken.length} link(s) would make the paid job fail; nothing to send until they are fixed.`);
      return EXIT.refused;
    }
    if (!result.ok) {
      io.err(
        `The project cannot be sent as a ${result.target} request (${result.problems.filter((p) => p.level === 'error').length} problem(s)):`,
      );
      for (const problem of result.problems) io.err(`  ${problem.level.padEnd(7)}  ${problem.message}`);
      return EXIT.refused;
    }
    for (const warning of result.warnings) io.err(`  ${warning.level.padEnd(7)}  ${warning.message}`);
    io.out(JSON.stringify(result.body, null, 2));
    return EXIT.ok;
  },
};

/** The editor's link pre-flight, by the studio's own check: every link fetched once (media cache) and probed. */
async function checkMedia(project: Project, args: ParsedArgs, io: CliIo): Promise<LinkProblem[]> {
  const urls = linkUrls(project);
  // Reads only: beside a studio that has the folder open, that studio checks them (with its sandbox running).
  return withStudio(
    args,
    io,
    'reads',
    async (studio) => {
      await studio.prepare(urls);
      const reports = await studio.call('media.checkLinks', { urls, fresh: true });
      return linkProblems(project, new Map(reports.map((r) => [r.url, r])));
    },
    { sendsWork: false },
  );
}
