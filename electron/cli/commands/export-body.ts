import { exportBody } from '../../common/composition/export-body';
import { ProjectKind } from '../../common/composition/document';
import { TEXT_LIMITS, type PlanTier } from '../../common/composition/rules';
import { EXIT, UsageError, flag, type CliCommand } from '../command';
import { readProjectArg } from './project-file';

/**
 * `export-body <project.json> [--target avatar-video|talking-avatar]`: prints the request body the
 * studio would send, or every problem that stops it (exit 1).
 */
export const exportBodyCommand: CliCommand = {
  name: 'export-body',
  usage: 'export-body <project.json> [--target avatar-video|talking-avatar] [--plan pro|pro-max|business] [--webhook URL]',
  summary: 'print the request body for a project, or every problem that blocks it',
  valueFlags: ['--target', '--plan', '--webhook'],
  async run(args, io) {
    const { project } = await readProjectArg(args, io);
    const targetFlag = flag(args, '--target');
    const target = targetFlag === undefined ? undefined : ProjectKind.safeParse(targetFlag);
    if (target && !target.success) throw new UsageError(`--target must be avatar-video or talking-avatar (got "${targetFlag}")`);
    const planFlag = flag(args, '--plan');
    if (planFlag !== undefined && !(planFlag in TEXT_LIMITS)) throw new UsageError(`--plan must be pro, pro-max or business (got "${planFlag}")`);

    const result = exportBody(project, { target: target?.data, plan: planFlag as PlanTier | undefined, webhookUrl: flag(args, '--webhook') });
    if (!result.ok) {
      io.err(`The project cannot be sent as a ${result.target} request (${result.problems.filter((p) => p.level === 'error').length} problem(s)):`);
      for (const problem of result.problems) io.err(`  ${problem.level === 'error' ? 'error  ' : 'warning'}  ${problem.message}`);
      return EXIT.failed;
    }
    for (const warning of result.warnings) io.err(`  warning  ${warning.message}`);
    io.out(JSON.stringify(result.body, null, 2));
    return EXIT.ok;
  },
};
