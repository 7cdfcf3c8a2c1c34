import { defineCommand } from '../../cli/command.js';
import { ops, RETENTION_DAYS } from '../../contract/spaces.js';
import { spaceFields } from './columns.js';
import { named } from '../prompts.js';
import { findInTrash } from './trash.js';

export default defineCommand({
  name: 'restore',
  summary: `Restore a deleted space (within ${RETENTION_DAYS} days of its deletion)`,
  description:
    'It goes back at the end of its collection, or at the organization’s root when that collection is gone; ' +
    'stderr says where it went (and, where the service lists deleted spaces, that its collection is gone).',
  args: [{ name: 'space', description: 'space id (see docsctl spaces list --deleted)' }],
  examples: ['docsctl spaces restore sp_123', 'docsctl spaces list --deleted'],
  output: { fields: spaceFields },
  async run(ctx, { args }) {
    const api = await ctx.api();
    // Where it was (best effort: the list of deleted spaces is a sandbox extension).
    const before = await findInTrash(ctx, api, args.space);
    const space = await api.call(ops.restoreSpace, { params: { spaceId: args.space } });
    const what = named('space', space.id, space.title);
    if (space.parent) ctx.info(`restored ${what} into collection ${space.parent}`);
    else if (before?.parent) ctx.info(`restored ${what} at the organization’s root: its collection ${before.parent} is gone`);
    else ctx.info(`restored ${what} at the organization’s root`);
    return space;
  },
});
