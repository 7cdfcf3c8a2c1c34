import { defineCommand } from '../../cli/command.js';
import { ops } from '../../contract/change-requests.js';
import { CR_ARGS, crParams } from './columns.js';
import { checkOutcome, outcomeFields } from './outcome.js';

export default defineCommand({
  name: 'update',
  summary: 'Bring a change request up to date with its space (pull the space’s newer content into it)',
  description:
    'The space’s changes since the change request branched (or was last updated) are merged into its content, ' +
    'and it is no longer outdated. When both changed the same pages, nothing changes: the pages are named on ' +
    'stderr and the exit code is 6.',
  args: CR_ARGS,
  examples: ['docsctl cr update sp_123 3', 'docsctl cr update sp_123 3 --json | jq -r .revision'],
  output: { fields: outcomeFields },
  async run(ctx, { args }) {
    const params = crParams(args);
    const api = await ctx.api();
    const answer = await ctx.spinning(
      `updating change request ${params.changeRequestId} from the space…`,
      api.call(ops.updateChangeRequestFromSpace, { params }),
    );
    const result = checkOutcome(answer, params, 'updated');
    ctx.info(`change request ${params.changeRequestId} is up to date with space ${params.spaceId}: revision ${result.revision}`);
    return result;
  },
});
