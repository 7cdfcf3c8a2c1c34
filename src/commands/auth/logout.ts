import { defineCommand } from '../../cli/command.js';
import { ProfileStore, unknownProfile } from '../../config/profiles.js';

export default defineCommand({
  name: 'logout',
  summary: 'Forget the profile’s token',
  examples: ['docsctl auth logout', 'docsctl --profile staging auth logout'],
  noJson: true,
  async run(ctx) {
    const store = await ProfileStore.open(ctx.env.DOCSCTL_CONFIG_DIR);
    const named =
      ctx.globals.profile !== undefined
        ? { name: ctx.globals.profile, source: '--profile' }
        : ctx.env.DOCSCTL_PROFILE
          ? { name: ctx.env.DOCSCTL_PROFILE, source: 'DOCSCTL_PROFILE' }
          : undefined;
    if (named && store.get(named.name) === undefined) throw unknownProfile(named.name, store.names(), named.source, store.path);
    const name = named?.name ?? store.current;
    const profile = store.get(name);
    if (!profile?.token) ctx.info(`profile ${name} has no token: nothing to do`);
    else {
      const { token: _forgotten, ...rest } = profile;
      store.save(name, rest, false);
      ctx.info(`logged out of ${profile.apiUrl ?? 'the service'} (profile ${name})`);
    }
    if (ctx.env.DOCSCTL_TOKEN) ctx.info('note: DOCSCTL_TOKEN is still set in the environment');
  },
});
