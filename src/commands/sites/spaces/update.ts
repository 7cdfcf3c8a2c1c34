import { checkBody, nonEmpty, defineCommand } from '../../../cli/command.js';
import { ops } from '../../../contract/sites.js';
import { siteSpaceFields } from '../columns.js';
import { BOOLEAN_CHOICES, toBool } from '../flags.js';

export default defineCommand({
  name: 'update',
  aliases: ['edit'],
  summary: 'Change a site space’s path, condition, space, or whether navigation hides it',
  args: [{ name: 'site', description: 'site id' }, { name: 'siteSpace', description: 'site space id' }],
  flags: {
    path: { description: 'URL path segment, unique within its section', value: 'path' },
    condition: { description: 'expression deciding who sees it, or null to remove', value: 'expr', nullable: true },
    space: { description: 'the space it publishes instead', value: 'id' },
    hidden: { description: 'hide it from navigation (true) or show it (false)', value: 'bool', choices: BOOLEAN_CHOICES },
  },
  examples: [
    'docsctl sites spaces update site_123 ss_456 --path v2 --hidden true',
    'docsctl sites spaces update site_123 ss_456 --condition null',
  ],
  output: { fields: siteSpaceFields },
  async run(ctx, { args, flags }) {
    const body = checkBody(ops.updateSiteSpace, {
      path: flags.path, condition: flags.condition, spaceId: flags.space, hidden: toBool(flags.hidden),
    }, { spaceId: '--space' });
    nonEmpty(body, 'pass --path, --condition, --space or --hidden');
    const [api, organizationId] = [await ctx.api(), await ctx.org()];
    return api.call(ops.updateSiteSpace, { params: { organizationId, siteId: args.site, siteSpaceId: args.siteSpace }, body });
  },
});
