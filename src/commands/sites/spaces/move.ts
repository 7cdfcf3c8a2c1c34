import { checkBody, defineCommand } from '../../../cli/command.js';
import { ops } from '../../../contract/sites.js';
import { siteSpaceFields } from '../columns.js';
import { positionBody } from '../flags.js';

export default defineCommand({
  name: 'move',
  summary: 'Move a site space just before or after another (it joins that one’s section)',
  args: [{ name: 'site', description: 'site id' }, { name: 'siteSpace', description: 'site space id' }],
  flags: {
    before: { description: 'place it just before this site space', value: 'id' },
    after: { description: 'place it just after this site space', value: 'id' },
  },
  examples: ['docsctl sites spaces move site_123 ss_456 --after ss_789'],
  output: { fields: siteSpaceFields },
  async run(ctx, { args, flags }) {
    const { body, flagOf } = positionBody(flags, 'site-space', 'siteSpace');
    const checked = checkBody(ops.moveSiteSpace, body, flagOf);
    const [api, organizationId] = [await ctx.api(), await ctx.org()];
    return api.call(ops.moveSiteSpace, { params: { organizationId, siteId: args.site, siteSpaceId: args.siteSpace }, body: checked });
  },
});
