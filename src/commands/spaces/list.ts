import { defineCommand } from '../../cli/command.js';
import { CliError, EXIT } from '../../cli/errors.js';
import { ops, type ListedSpace } from '../../contract/spaces.js';
import { ops as collectionOps } from '../../contract/collections.js';
import { spaceColumns, trashColumns } from './columns.js';
import { aliased, hiddenAlias } from '../flags.js';

export default defineCommand({
  name: 'list',
  aliases: ['ls'],
  summary: 'List the spaces of the organization (or of one collection, or the deleted ones)',
  description:
    'With --deleted: the deleted spaces you may still restore, most recently deleted first, with the time left. ' +
    'It asks for deleted=true, a sandbox extension (the official API has no list of deleted spaces): ' +
    'a service without it is reported as an error (exit 1) naming what is needed, never listed as deleted.',
  flags: {
    parent: { description: 'only the spaces in this collection (as spaces create --parent puts them)', value: 'collection', conflicts: ['collection'] },
    collection: hiddenAlias('--parent', 'collection'),
    deleted: { type: 'boolean', description: 'deleted spaces that can still be restored, with the time left', conflicts: ['parent', 'collection'] },
  },
  examples: ['docsctl spaces list', 'docsctl spaces list --parent col_123 --all --json', 'docsctl spaces list --deleted'],
  list: true,
  output: { columns: spaceColumns },
  async run(ctx, { flags, print }) {
    const parent = aliased(ctx, { flag: '--parent', old: '--collection' }, flags.parent, flags.collection);
    const api = await ctx.api();
    if (parent !== undefined) {
      return api.paginate(collectionOps.listCollectionSpaces, { params: { collectionId: parent } }, flags.page);
    }
    const organizationId = await ctx.org();
    if (!flags.deleted) return api.paginate(ops.listSpaces, { params: { organizationId } }, flags.page);
    const trash = api.paginator<ListedSpace>(
      async (cursor, limit) => {
        const query = { deleted: true, limit, ...(cursor ? { page: cursor } : {}) };
        const page = await api.call(ops.listSpaces, { params: { organizationId }, query });
        // A service without the extension ignores the parameter: its answer is live spaces, or spaces
        // without the extension's `trash` (when they may be restored until).
        if (page.items.some((s) => !s.deletedAt || !s.trash)) {
          throw new CliError(
            `the service does not list deleted spaces: --deleted needs GET /v1/orgs/${organizationId}/spaces?deleted=true to answer deleted spaces with their "trash" (restorableUntil, secondsLeft)`,
            EXIT.FAILED,
            'that is a docsctl sandbox extension, not part of the official API (docs/compatibility.md); restore a space by its id with docsctl spaces restore',
          );
        }
        return page;
      },
      flags.page,
      `GET /v1/orgs/${encodeURIComponent(organizationId)}/spaces?deleted=true`,
    );
    // Its own columns (deletion time and time left).
    return print(trash, { columns: trashColumns });
  },
});
