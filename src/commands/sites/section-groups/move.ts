import { checkBody, defineCommand } from '../../../cli/command.js';
import { ops } from '../../../contract/sites.js';
import { groupFields } from '../columns.js';
import { LAST_FLAG, positionBody } from '../flags.js';

export default defineCommand({
  name: 'move',
  summary: 'Move a section group next to a section or another group (it joins that one’s group, if any), or to the end of the site',
  args: [{ name: 'site', description: 'site id' }, { name: 'group', description: 'section group id' }],
  flags: {
    before: { description: 'place it just before this section', value: 'id' },
    after: { description: 'place it just after this section', value: 'id' },
    beforeGroup: { description: 'place it just before this section group', value: 'id' },
    afterGroup: { description: 'place it just after this section group', value: 'id' },
    last: { ...LAST_FLAG, description: 'move it to the end of the site’s top level' },
  },
  examples: [
    'docsctl sites section-groups move site_123 grp_456 --before sec_789',
    'docsctl sites section-groups move site_123 grp_456 --after-group grp_1',
    'docsctl sites section-groups move site_123 grp_456 --after sec_1 --before-group grp_2   # between two neighbours',
  ],
  output: { fields: groupFields },
  async run(ctx, { args, flags }) {
    const { body, flagOf } = positionBody(flags, (id, group) => ({ type: group ? 'site-section-group' : 'site-section', id }));
    const checked = checkBody(ops.moveSiteSectionGroup, body, flagOf);
    const [api, organizationId] = [await ctx.api(), await ctx.org()];
    return api.call(ops.moveSiteSectionGroup, { params: { organizationId, siteId: args.site, siteSectionGroupId: args.group }, body: checked });
  },
});
