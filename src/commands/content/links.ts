import { defineCommand } from '../../cli/command.js';
import { linkColumns, linkListFlags, linkStatusOf, listLinks, spaceLinks } from './links-output.js';
import { resolvePage } from './lookup.js';
import { pageIdFlags, pageIdOf } from '../flags.js';

export default defineCommand({
  name: 'links',
  summary: 'List the links of a space’s pages (or of one page), each ok, broken or in-app',
  args: [{ name: 'space', description: 'space id' }],
  flags: {
    ...linkListFlags,
    ...pageIdFlags('only the links of this page (id or path)', 'page'),
  },
  examples: [
    'docsctl content links sp_123 --broken',
    'docsctl content links sp_123 --fail-on-broken   # in CI: exit 1 when a link is broken',
    'docsctl content links sp_123 --page-id getting-started/install',
    'docsctl content links sp_123 --json | jq ".[] | select(.status == \\"broken\\")"',
  ],
  output: { columns: linkColumns },
  async run(ctx, { args, flags, print }) {
    const status = linkStatusOf(flags);
    const pageRef = pageIdOf(ctx, flags);
    const api = await ctx.api();
    const pageId = pageRef === undefined ? undefined : (await resolvePage(api, args.space, pageRef)).id;
    return listLinks(ctx, spaceLinks(api, args.space, pageId), { ...(status ? { status } : {}), failOnBroken: flags.failOnBroken }, print);
  },
});
