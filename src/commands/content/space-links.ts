/** `docsctl spaces links`: the links of a space (the same list as `docsctl content links`). */
import { defineCommand } from '../../cli/command.js';
import { linkColumns, linkListFlags, linkStatusOf, listLinks, spaceLinks } from './links-output.js';

export default defineCommand({
  name: 'links',
  summary: 'List the links of a space’s pages, each ok, broken or in-app (stats on stderr)',
  args: [{ name: 'space', description: 'space id' }],
  flags: linkListFlags,
  examples: ['docsctl spaces links sp_123', 'docsctl spaces links sp_123 --broken --json', 'docsctl spaces links sp_123 --fail-on-broken   # in CI'],
  output: { columns: linkColumns },
  async run(ctx, { args, flags, print }) {
    const status = linkStatusOf(flags);
    return listLinks(ctx, spaceLinks(await ctx.api(), args.space), { ...(status ? { status } : {}), failOnBroken: flags.failOnBroken }, print);
  },
});
