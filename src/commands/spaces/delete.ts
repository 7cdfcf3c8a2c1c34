import { defineCommand } from '../../cli/command.js';
import { CliError, EXIT } from '../../cli/errors.js';
import { ApiError } from '../../client/errors.js';
import { ops, RETENTION_DAYS } from '../../contract/spaces.js';
import { confirmAction, named } from '../prompts.js';
import { findInTrash } from './trash.js';

export default defineCommand({
  name: 'delete',
  aliases: ['rm'],
  summary: `Delete a space (restorable for ${RETENTION_DAYS} days, then gone for good)`,
  description:
    'A space that is already deleted is left as it is: docsctl says so and exits 0 (the service answers 204 to a ' +
    'delete either way). It knows from the space (a service that shows deletedAt), or from the list of deleted ' +
    'spaces (a sandbox extension). Where the service shows neither, a space it does not find is reported as not ' +
    'there (already deleted, or never existed), exit 0, nothing sent. A space that is neither live nor among the ' +
    'deleted ones is not found (exit 4).',
  args: [{ name: 'space', description: 'space id' }],
  examples: ['docsctl spaces delete sp_123 --yes'],
  destructive: true,
  async run(ctx, { args, flags }) {
    const api = await ctx.api();
    const params = { spaceId: args.space };
    const live = await api.call(ops.getSpace, { params }).catch((err: unknown) => {
      if (err instanceof ApiError && err.status === 404) return undefined;
      throw err;
    });
    const restoreHint = `restore it with docsctl spaces restore ${args.space}`;
    if (live?.deletedAt) {
      ctx.info(`${named('space', args.space, live.title)} is already deleted (${live.deletedAt}): nothing to do; ${restoreHint}`);
      return;
    }
    if (!live) {
      const trashed = await findInTrash(ctx, api, args.space);
      if (trashed) {
        ctx.info(`${named('space', args.space, trashed.title)} is already deleted: nothing to do; ${restoreHint} (until ${trashed.trash!.restorableUntil})`);
        return;
      }
      if (trashed === null) {
        const org = await ctx.org();
        throw new CliError(
          `no space ${args.space}: it is neither live nor among the deleted spaces of organization ${org}`,
          EXIT.NOT_FOUND,
          'a space of another organization: pass --org ID',
        );
      }
      // The service does not say (and its delete would answer 204 either way): nothing is sent.
      ctx.info(`space ${args.space} is not there: already deleted, or it never existed (the service does not say which); nothing to do`);
      return;
    }
    await confirmAction(ctx, flags.yes, {
      verb: 'Delete',
      kind: 'space',
      id: args.space,
      title: async () => live.title,
      then: `It can be restored for ${RETENTION_DAYS} days.`,
    });
    await api.call(ops.deleteSpace, { params });
    ctx.info(`deleted ${named('space', args.space, live.title)} (restore it within ${RETENTION_DAYS} days: docsctl spaces restore ${args.space})`);
  },
});
