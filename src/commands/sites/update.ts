import { checkBody, nonEmpty, defineCommand } from '../../cli/command.js';
import { DEFAULT_LEVELS } from '../../contract/op.js';
import { AGENTS_CONTEXTS, ops, SITE_VISIBILITIES, siteBasename, siteTitle } from '../../contract/sites.js';
import { siteFields } from './columns.js';
import { BOOLEAN_CHOICES, toBool } from './flags.js';
import { characters } from '../flags.js';

export default defineCommand({
  name: 'update',
  aliases: ['edit'],
  summary: 'Change a site’s title, visibility, addresses, defaults, default level or adaptive content',
  args: [{ name: 'site', description: 'site id' }],
  flags: {
    title: { description: `new title (${characters(siteTitle)})`, value: 'title' },
    visibility: { description: 'who may see it once published', value: 'visibility', choices: SITE_VISIBILITIES },
    basename: { description: `path below the site’s address (${characters(siteBasename)})`, value: 'segment' },
    proxy: { description: 'host plus path it is served from, such as example.com/docs, or null to remove', value: 'url', nullable: true },
    adaptiveContent: { description: 'turn adaptive content on (true) or off (false)', value: 'bool', choices: BOOLEAN_CHOICES },
    agentsContext: { description: 'whether AI agents may access the site', value: 'value', choices: AGENTS_CONTEXTS },
    defaultLevel: {
      description: 'the role every member has on the site at least; inherit or null: their own',
      value: 'level',
      choices: DEFAULT_LEVELS,
      nullable: true,
    },
    defaultSiteSpace: { description: 'default site space (at the root, or in the default section)', value: 'id' },
    defaultSiteSection: { description: 'default section', value: 'id' },
  },
  examples: [
    'docsctl sites update site_123 --title "Developer docs" --visibility unlisted',
    'docsctl sites update site_123 --proxy example.com/docs',
    'docsctl sites update site_123 --default-site-section sec_456',
    'docsctl sites update site_123 --default-level edit',
  ],
  output: { fields: siteFields },
  async run(ctx, { args, flags }) {
    const adaptive = toBool(flags.adaptiveContent);
    const body = checkBody(ops.updateSite, {
      title: flags.title,
      visibility: flags.visibility,
      basename: flags.basename,
      proxy: flags.proxy,
      adaptiveContent: adaptive === undefined ? undefined : { enabled: adaptive },
      agentsContext: flags.agentsContext,
      defaultLevel: flags.defaultLevel,
      defaultSiteSpace: flags.defaultSiteSpace,
      defaultSiteSection: flags.defaultSiteSection,
    });
    nonEmpty(body, 'pass at least one flag; see docsctl sites update --help');
    const [api, organizationId] = [await ctx.api(), await ctx.org()];
    return api.call(ops.updateSite, { params: { organizationId, siteId: args.site }, body });
  },
});
