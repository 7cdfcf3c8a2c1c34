import { checkBody, nonEmpty, defineCommand } from '../../../cli/command.js';
import { ops, condition, sitePath } from '../../../contract/sites.js';
import { siteSpaceFields } from '../columns.js';
import { BOOLEAN_CHOICES, toBool } from '../flags.js';
import { aliased, characters } from '../../flags.js';

export default defineCommand({
  name: 'update',
  aliases: ['edit'],
  summary: 'Change a site space’s path, condition, space, home page, draft state, or whether navigation hides it',
  args: [
    { name: 'site', description: 'site id' },
    { name: 'siteSpace', description: 'site space id' },
  ],
  flags: {
    path: { description: `URL path segment (${characters(sitePath)}), unique within its section`, value: 'segment' },
    condition: { description: `expression deciding who sees it (${characters(condition)}), or null to remove`, value: 'expr', nullable: true },
    space: { description: 'the space it publishes instead (its home page is then removed)', value: 'space' },
    pageId: { description: 'a page of its space to show at its root, or null for the space’s first page', value: 'id', nullable: true, conflicts: ['page'] },
    page: { description: 'old name of --page-id', value: 'id', nullable: true, hidden: true },
    hidden: { description: 'hide it from navigation (true) or show it (false)', value: 'bool', choices: BOOLEAN_CHOICES },
    draft: { description: 'make it a draft (true) or live (false)', value: 'bool', choices: BOOLEAN_CHOICES },
  },
  examples: [
    'docsctl sites spaces update site_123 ss_456 --path v2 --hidden true',
    'docsctl sites spaces update site_123 ss_456 --condition null',
    'docsctl sites spaces update site_123 ss_456 --page-id pg_1 --draft false',
  ],
  output: { fields: siteSpaceFields },
  async run(ctx, { args, flags }) {
    const body = checkBody(
      ops.updateSiteSpace,
      {
        path: flags.path,
        condition: flags.condition,
        spaceId: flags.space,
        pageId: aliased(ctx, { flag: '--page-id', old: '--page', warn: true }, flags.pageId, flags.page),
        hidden: toBool(flags.hidden),
        draft: toBool(flags.draft),
      },
      { spaceId: '--space', pageId: '--page-id' },
    );
    nonEmpty(body, 'pass --path, --condition, --space, --page-id, --hidden or --draft');
    const [api, organizationId] = [await ctx.api(), await ctx.org()];
    return api.call(ops.updateSiteSpace, { params: { organizationId, siteId: args.site, siteSpaceId: args.siteSpace }, body });
  },
});
