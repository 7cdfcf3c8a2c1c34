import { defineCommand } from '../../cli/command.js';
import { UsageError } from '../../cli/errors.js';
import { LINK_STATUSES } from '../../contract/content.js';
import { linkColumns, listLinks } from './links-output.js';
import { resolvePage } from './lookup.js';

export default defineCommand({
  name: 'links',
  summary: 'List the links of a space’s pages (or of one page), each ok, broken or in-app',
  args: [{ name: 'space', description: 'space id' }],
  flags: {
    broken: { type: 'boolean', description: 'only broken links (status broken)' },
    status: { description: 'only links with this status', value: 'status', choices: LINK_STATUSES },
    page: { description: 'only the links of this page (id or path)', value: 'page' },
  },
  examples: [
    'docsctl content links sp_123 --broken',
    'docsctl content links sp_123 --page getting-started/install',
    'docsctl content links sp_123 --json | jq ".[] | select(.status == \\"broken\\")"',
  ],
  output: { columns: linkColumns },
  async run(ctx, { args, flags }) {
    if (flags.broken && flags.status && flags.status !== 'broken') throw new UsageError('--broken and --status cannot be used together');
    const status = flags.broken ? 'broken' : flags.status;
    const pageId = flags.page === undefined ? undefined : (await resolvePage(await ctx.api(), args.space, flags.page)).id;
    return listLinks(ctx, args.space, { ...(status ? { status } : {}), ...(pageId ? { pageId } : {}) });
  },
});
