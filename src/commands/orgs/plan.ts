import { defineCommand } from '../../cli/command.js';
import { QuietExit } from '../../cli/errors.js';
import { terminalText } from '../../cli/escape.js';
import { concurrencyOf, fileFlags, loadDesired, planOf } from './orgfile.js';

/** `orgs plan`'s exit code when changes are pending (as terraform plan -detailed-exitcode). */
export const PENDING = 2;

export default defineCommand({
  name: 'plan',
  summary: 'Show what apply would change to make the organization the file’s (reads only)',
  description:
    'Grouped by kind: + create, ~ update (field: old → new), → move or reorder, - delete (only with --prune, only of the kinds the file declares); ' +
    'then what apply cannot make, and a summary line. Exit 0: no changes; 2: changes pending (as terraform plan -detailed-exitcode); ' +
    'a file that cannot be used exits 2 too, with every problem at its file:line:column and nothing on stdout. See docs/org-as-code.md.',
  flags: { file: fileFlags.file, prune: fileFlags.prune, concurrency: fileFlags.concurrency },
  examples: ['docsctl orgs plan -f org.yaml', 'docsctl orgs plan -f org.yaml --prune', 'docsctl orgs plan -f org.yaml --json | jq .summary'],
  async run(ctx, { flags, jq }) {
    const desired = await loadDesired(ctx, flags.file);
    const { plan } = await planOf(ctx, desired, Boolean(flags.prune), concurrencyOf(flags.concurrency));
    const { planJson, renderPlan } = await import('../../orgfile/render.js');
    if (flags.json) {
      const { render } = await import('../../cli/output.js');
      await render(ctx, planJson(plan), {}, { ...flags, ...(jq ? { jqProgram: jq } : {}) });
    } else {
      // The plan as a person reads it: titles from the service and the file, control characters escaped.
      ctx.out(terminalText(renderPlan(plan)));
    }
    if (plan.changes.length) throw new QuietExit(PENDING);
    return undefined;
  },
});
