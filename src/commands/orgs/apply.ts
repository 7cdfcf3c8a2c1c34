import { defineCommand } from '../../cli/command.js';
import { CliError, describeFailure, EXIT } from '../../cli/errors.js';
import { concurrencyOf, fileArgs, fileFlags, loadDesired, planOf } from './orgfile.js';
import { plural } from '../../cli/text.js';

export default defineCommand({
  name: 'apply',
  summary: 'Make the organization the file’s: show the plan, confirm, apply in dependency order',
  description:
    'Collections before spaces before sites, sections before site spaces, moves after creations; deletions only with --prune, ' +
    'only of the kinds the file declares. Progress goes to stderr. On a failure it stops and says what was applied and what was not: ' +
    'run it again to continue (apply is idempotent). Asks on a terminal; --yes in CI. See docs/org-as-code.md.',
  flags: { file: fileFlags.file, prune: fileFlags.prune, concurrency: fileFlags.concurrency },
  destructive: true,
  noJson: true,
  examples: ['docsctl orgs apply -f org.yaml', 'docsctl orgs apply -f org.yaml --prune --yes'],
  async run(ctx, { flags }) {
    const desired = await loadDesired(ctx, flags.file, 'apply');
    const { plan, reader } = await planOf(ctx, desired, Boolean(flags.prune), concurrencyOf(flags.concurrency));
    const { changeLines, renderPlan } = await import('../../orgfile/render.js');
    ctx.info(renderPlan(plan).trimEnd());
    if (plan.changes.length === 0) return;
    const n = plan.changes.length;
    await ctx.confirm(`apply ${n === 1 ? 'this change' : `these ${n} changes`} to organization ${plan.organization}?`, flags.yes);
    const { applyFile } = await import('../../orgfile/workflow.js');
    const result = await applyFile(reader, plan, (c) => ctx.info(`  ${changeLines(c)[0]}`));
    if (result.error === undefined) {
      ctx.info(`Applied: ${plural(result.applied.length, 'change')} (${plural(result.requests, 'request')}).`);
      return;
    }
    const f = describeFailure(result.error, ctx.run);
    const lines = [
      `apply stopped: ${f.message}`,
      `applied: ${plural(result.applied.length, 'change')}; not applied: ${result.notApplied.length}`,
      ...result.notApplied.slice(0, 20).map((c) => `  ${changeLines(c)[0]}`),
      ...(result.notApplied.length > 20 ? [`  … and ${result.notApplied.length - 20} more`] : []),
    ];
    throw new CliError(
      lines.join('\n'),
      f.exitCode === EXIT.OK ? EXIT.FAILED : f.exitCode,
      `run docsctl orgs apply ${fileArgs(flags.file ?? [])} again to finish: it plans from what the organization has now${f.hint ? ` (${f.hint})` : ''}`,
    );
  },
});
