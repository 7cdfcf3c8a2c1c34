import { checkBody, defineCommand } from '../../../cli/command.js';
import { ops } from '../../../contract/sites.js';
import { groupFields } from '../columns.js';
import { positionBody } from '../flags.js';

export default defineCommand({
  name: 'move',
  summary: 'Move a section group just before or after a section or another group',
  args: [{ name: 'site', description: 'site id' }, { name: 'group', description: 'section group id' }],
  flags: {
    before: { description: 'place it just before this section or group', value: 'id' },
    after: { description: 'place it just after this section or group', value: 'id' },
  },
  examples: ['docsctl sites section-groups move site_123 grp_456 --before sec_789'],
  output: { fields: groupFields },
  async run(ctx, { args, flags }) {
    const { body, flagOf } = positionBody(flags, 'site-section', 'id');
    const checked = checkBody(ops.moveSiteSectionGroup, body, flagOf);
    const [api, organizationId] = [await ctx.api(), await ctx.org()];
    return api.call(ops.moveSiteSectionGroup, { params: { organizationId, siteId: args.site, siteSectionGroupId: args.group }, body: checked });
  },
});
