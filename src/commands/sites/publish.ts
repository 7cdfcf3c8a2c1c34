import { defineCommand } from '../../cli/command.js';
import { CheckoutNeededError } from '../../client/errors.js';
import { isCheckout, ops } from '../../contract/sites.js';
import { siteFields } from './columns.js';

export default defineCommand({
  name: 'publish',
  summary: 'Publish a site: its audience (set by its visibility) can see it',
  description:
    'When the service answers that the organization’s plan needs an upgrade first (a checkout session, in the official ' +
    'API description), the site is not published: the error says so with the session id, stdout stays empty and the exit code is 6.',
  args: [{ name: 'site', description: 'site id' }],
  examples: ['docsctl sites publish site_123'],
  output: { fields: siteFields },
  async run(ctx, { args }) {
    const [api, organizationId] = [await ctx.api(), await ctx.org()];
    const answer = await api.call(ops.publishSite, { params: { organizationId, siteId: args.site } });
    if (isCheckout(answer)) throw new CheckoutNeededError(args.site, answer.sessionId);
    return answer;
  },
});
