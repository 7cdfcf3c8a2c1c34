import { checkBody, defineCommand } from '../../../cli/command.js';
import { ops } from '../../../contract/sites.js';
import { sectionFields } from '../columns.js';
import { positionBody } from '../flags.js';

export default defineCommand({
  name: 'move',
  summary: 'Move a section just before or after another section or group (it joins that one’s group, if any)',
  args: [{ name: 'site', description: 'site id' }, { name: 'section', description: 'section id' }],
  flags: {
    before: { description: 'place it just before this section or group', value: 'id' },
    after: { description: 'place it just after this section or group', value: 'id' },
  },
  examples: ['docsctl sites sections move site_123 sec_456 --before sec_789', 'docsctl sites sections move site_123 sec_456 --after grp_1'],
  output: { fields: sectionFields },
  async run(ctx, { args, flags }) {
    const { body, flagOf } = positionBody(flags, 'site-section', 'siteSection');
    const checked = checkBody(ops.moveSiteSection, body, flagOf);
    const [api, organizationId] = [await ctx.api(), await ctx.org()];
    return api.call(ops.moveSiteSection, { params: { organizationId, siteId: args.site, siteSectionId: args.section }, body: checked });
  },
});
