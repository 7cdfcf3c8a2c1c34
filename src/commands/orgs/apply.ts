import { readFile, stat } from 'node:fs/promises';
import { defineCommand } from '../../cli/command.js';
import type { Context } from '../../cli/context.js';
import { CliError, describeFailure, EXIT, UsageError } from '../../cli/errors.js';
import type { Runnable } from '../../orgfile/apply.js';
import type { Reader } from '../../orgfile/live.js';
import type { Shown } from '../../orgfile/render.js';
import { concurrencyOf, fileArgs, fileFlags, loadDesired, planOf, refuseUnknown } from './orgfile.js';
import { plural } from '../../cli/text.js';

export default defineCommand({
  name: 'apply',
  summary: 'Make the organization the file’s, or apply a saved plan exactly: show the plan, confirm, apply in dependency order',
  description:
    'Collections before spaces before sites, sections before site spaces, moves after creations; deletions only with --prune, ' +
    'only of the kinds the file declares. Every request it sends is a step of the plan it shows. Progress goes to stderr. On a failure it stops ' +
    'and says what was applied and what was not: run it again to continue (apply is idempotent). With PLAN (written by orgs plan --out) ' +
    'instead of -f, it applies exactly that plan’s steps; it first reads again what the plan read, and when the organization changed since, ' +
    'it applies nothing and exits 6, naming what changed. Asks on a terminal; --yes in CI. See docs/org-as-code.md.',
  args: [{ name: 'plan', description: 'a plan file written by docsctl orgs plan --out (instead of -f)', optional: true, files: true }],
  flags: { file: fileFlags.file, prune: fileFlags.prune, concurrency: fileFlags.concurrency },
  destructive: true,
  noJson: true,
  examples: [
    'docsctl orgs apply -f org.yaml',
    'docsctl orgs apply -f org.yaml --prune --yes',
    'docsctl orgs apply org.plan --yes   # the plan orgs plan --out wrote',
  ],
  async run(ctx, { args, flags }) {
    const concurrency = concurrencyOf(flags.concurrency);
    let shown: Shown;
    let runnable: Runnable;
    let reader: Reader;
    let again: string;
    if (args.plan !== undefined) {
      if (flags.file !== undefined && flags.file.length > 0)
        throw new UsageError('give a plan file or --file, not both', 'docsctl orgs apply PLAN applies a saved plan; -f FILE plans and applies');
      if (flags.prune !== undefined) throw new UsageError('--prune: a saved plan says itself whether it prunes (orgs plan --prune --out PLAN)');
      ({ shown, runnable, reader } = await savedPlan(ctx, args.plan, concurrency));
      again = `plan again (docsctl orgs plan -f FILE --out ${args.plan}) and apply that plan: it plans from what the organization has now`;
    } else {
      const desired = await loadDesired(ctx, flags.file, 'apply');
      const planned = await planOf(ctx, desired, Boolean(flags.prune), concurrency);
      shown = runnable = planned.plan;
      reader = planned.reader;
      again = `run docsctl orgs apply ${fileArgs(flags.file ?? [])} again to finish: it plans from what the organization has now`;
    }
    await refuseUnknown(runnable.steps);
    const { changeLines, renderPlan } = await import('../../orgfile/render.js');
    ctx.info(renderPlan(shown).trimEnd());
    if (shown.changes.length === 0) return;
    const n = shown.changes.length;
    await ctx.confirm(`apply ${n === 1 ? 'this change' : `these ${n} changes`} to organization ${shown.organization}?`, flags.yes);
    const { applyFile } = await import('../../orgfile/workflow.js');
    const result = await applyFile(reader, runnable, (c) => ctx.info(`  ${changeLines(c)[0]}`));
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
    throw new CliError(lines.join('\n'), f.exitCode === EXIT.OK ? EXIT.FAILED : f.exitCode, `${again}${f.hint ? ` (${f.hint})` : ''}`);
  },
});

/** A saved plan: read and checked (exit 2), for this organization, and the organization unchanged since (exit 6). */
async function savedPlan(ctx: Context, file: string, concurrency: number): Promise<{ shown: Shown; runnable: Runnable; reader: Reader }> {
  const { parseSavedPlan, PlanFileError } = await import('../../orgfile/saved.js');
  const { orgFileMaxBytes } = await import('./orgfile.js');
  let text: string;
  try {
    const max = await orgFileMaxBytes(ctx.env);
    if ((await stat(file)).size > max * 4) throw new UsageError(`<plan>: ${file} is larger than a plan of the largest organization file (${max * 4} bytes)`);
    text = await readFile(file, 'utf8');
  } catch (e) {
    if (e instanceof UsageError) throw e;
    throw new UsageError(`<plan>: cannot read ${file} (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
  }
  let saved;
  try {
    saved = parseSavedPlan(text, file);
  } catch (e) {
    if (e instanceof PlanFileError) throw new UsageError(e.message, 'nothing was sent');
    throw e;
  }
  const org = await ctx.org();
  if (saved.organization !== org) {
    throw new UsageError(
      `${file} is a plan for organization ${saved.organization}, not ${org}: nothing was sent`,
      `use --org ${saved.organization}, or plan for ${org}`,
    );
  }
  const { reader: makeReader, changedSincePlan, runnableOf } = await import('../../orgfile/workflow.js');
  const reader = makeReader(await ctx.api(), concurrency);
  const changed = await ctx.spinning(`reading organization ${org} again…`, changedSincePlan(reader, saved));
  if (changed.length) {
    throw new CliError(
      [
        `the organization changed since the plan was made (${file}, ${saved.createdAt}): nothing was applied`,
        ...changed.slice(0, 20).map((c) => `  ${c}`),
        ...(changed.length > 20 ? [`  … and ${changed.length - 20} more`] : []),
      ].join('\n'),
      EXIT.CONFLICT,
      `plan again (docsctl orgs plan -f FILE --out ${file}), review that plan, and apply it`,
    );
  }
  return { shown: { ...saved, changes: saved.steps }, runnable: runnableOf(saved), reader };
}
