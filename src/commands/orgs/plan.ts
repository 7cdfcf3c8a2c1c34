import { defineCommand } from '../../cli/command.js';
import { StdoutClosed } from '../../cli/context.js';
import { EXIT, QuietExit } from '../../cli/errors.js';
import { terminalText } from '../../cli/escape.js';
import { concurrencyOf, fileFlags, loadDesired, planOf, writePlan } from './orgfile.js';

/** `orgs plan --detailed-exitcode`'s exit code when changes are pending (terraform plan -detailed-exitcode's). */
const PENDING = 2;

export default defineCommand({
  name: 'plan',
  summary: 'Show what apply would change to make the organization the file’s (reads only)',
  description:
    'Grouped by kind: + create, ~ update (field: old → new), → move or reorder, - delete (only with --prune, only of the kinds the file declares); ' +
    'then what apply cannot make, and a summary line. Exit 0 when it succeeds, whatever it found; a file that cannot be used exits 2, ' +
    'with every problem at its file:line:column and nothing on stdout (docsctl help exit-codes). With --detailed-exitcode, as terraform plan ' +
    '-detailed-exitcode: 0 no changes, 2 changes pending, 1 any failure. See docs/org-as-code.md.',
  flags: {
    file: fileFlags.file,
    prune: fileFlags.prune,
    concurrency: fileFlags.concurrency,
    out: {
      description:
        'also write the plan to this file (JSON: its steps, the requests they send, and a digest of each object it read), for docsctl orgs apply PLAN; it holds the values it sends (certificates from ${env:…} too): keep it as you keep secrets',
      value: 'plan',
    },
    detailedExitcode: {
      type: 'boolean',
      description:
        'exit 0 when there is nothing to do, 2 when changes are pending, 1 on any failure (a bad file or flag too), as terraform plan -detailed-exitcode',
      failureExit: EXIT.FAILED,
    },
  },
  examples: [
    'docsctl orgs plan -f org.yaml',
    'docsctl orgs plan -f org.yaml --prune',
    'docsctl orgs plan -f org.yaml -f teams/ --prune   # several files, one organization; each prunes only what it owns',
    'docsctl orgs plan -f org.yaml --detailed-exitcode   # in CI: 0 nothing to do, 2 changes pending, 1 failed',
    'docsctl orgs plan -f org.yaml --json | jq .summary',
    'docsctl orgs plan -f org.yaml --out org.plan   # reviewed, then: docsctl orgs apply org.plan',
  ],
  async run(ctx, { flags, print }) {
    const desired = await loadDesired(ctx, flags.file, 'plan');
    const { plan } = await planOf(ctx, desired, Boolean(flags.prune), concurrencyOf(flags.concurrency));
    if (flags.out) await writePlan(ctx, flags.out, plan);
    const pending = Boolean(flags.detailedExitcode) && plan.changes.length > 0;
    const { planJson, renderPlan } = await import('../../orgfile/render.js');
    try {
      if (flags.json) {
        await print(planJson(plan), {});
      } else {
        // The plan as a person reads it: titles from the service and the file, control characters escaped.
        ctx.out(terminalText(renderPlan(plan)));
      }
    } catch (e) {
      // Whoever read the plan went away (`| head`): the answer is still the plan's.
      if (!(e instanceof StdoutClosed && pending)) throw e;
    }
    if (pending) throw new QuietExit(PENDING);
    return undefined;
  },
});
