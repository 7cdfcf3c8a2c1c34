import { defineCommand } from '../../cli/command.js';
import { ops } from '../../contract/change-requests.js';
import { CR_ARGS, crParams } from './columns.js';
import { checkOutcome, outcomeFields } from './outcome.js';
import { confirmAction } from '../prompts.js';

export default defineCommand({
  name: 'merge',
  summary: 'Merge a change request: its content becomes the space’s new revision',
  description:
    'Needs the review role or above on the space, and the space’s merge rules met (a refusal names each rule that ' +
    'fails; the sandbox counts the merge as the review, by whoever merges unless they wrote the change request). ' +
    'When the space and the change request both changed the same pages since it branched (or was last updated), ' +
    'nothing is merged: the pages are named on stderr and the exit code is 6.',
  // Completion offers the change requests a merge takes: the space's open ones, then its drafts.
  args: [CR_ARGS[0], { ...CR_ARGS[1], ids: 'mergeable-cr' }],
  destructive: true,
  examples: ['docsctl cr merge sp_123 3', 'docsctl cr merge sp_123 3 --yes --json | jq -r .revision'],
  output: { fields: outcomeFields },
  async run(ctx, { args, flags }) {
    const params = crParams(args);
    const api = await ctx.api();
    await confirmAction(ctx, flags.yes, {
      verb: 'Merge',
      kind: 'change request',
      id: /^\d+$/.test(params.changeRequestId) ? `#${params.changeRequestId}` : params.changeRequestId,
      rest: `into space ${params.spaceId}`,
      title: async () => (await api.call(ops.getChangeRequest, { params })).subject,
      then: 'Its content becomes the space’s new revision.',
    });
    const answer = await ctx.spinning(`merging change request ${params.changeRequestId}…`, api.call(ops.mergeChangeRequest, { params }));
    const result = checkOutcome(answer, params, 'merged');
    ctx.info(`merged change request ${params.changeRequestId} into space ${params.spaceId}: revision ${result.revision}`);
    return result;
  },
});
