import { defineCommand } from '../../cli/command.js';
import { UsageError } from '../../cli/errors.js';
import { ProfileStore, unknownProfile, type Profile } from '../../config/profiles.js';

export default defineCommand({
  name: 'switch',
  summary: 'Make a saved profile the current one',
  description:
    'Without NAME, on a terminal, pick one from the saved profiles. The current profile is what commands use ' +
    'when neither --profile nor DOCSCTL_PROFILE names one.',
  args: [{ name: 'name', description: 'the profile to use from now on', optional: true, ids: 'profile' }],
  examples: ['docsctl auth switch staging', 'docsctl auth switch'],
  output: { fields: ['profile', 'apiUrl', 'organization', 'user'] },
  async run(ctx, { args, flags }) {
    const store = await ProfileStore.open(ctx.env.DOCSCTL_CONFIG_DIR);
    const profiles = store.all();
    const names = Object.keys(profiles);
    let name = args.name;
    if (name === undefined) {
      if (names.length === 0) throw new UsageError(`no profile is saved (${store.path})`, 'docsctl auth login saves one');
      if (!ctx.globals.interactive) {
        throw new UsageError(
          `auth switch: name the profile to use: ${names.join(', ')}`,
          `e.g. docsctl auth switch ${names.find((n) => n !== store.current) ?? names[0]} (a picker needs a terminal)`,
        );
      }
      const current = store.current;
      name = await ctx.choose(
        'Profile',
        async () =>
          names.map((n) => ({
            value: n,
            name: n === current ? `${n} (current)` : n,
            description: describe(profiles[n]),
          })),
        'profiles',
      );
    }
    if (!Object.hasOwn(profiles, name)) throw unknownProfile(name, names, 'auth switch', store.path);
    const profile = profiles[name];
    if (store.current === name) ctx.info(`profile ${name} is already the current one`);
    else {
      store.setCurrent(name);
      ctx.info(`switched to profile ${name}${profile.apiUrl ? ` (${describe(profile)})` : ''}`);
    }
    // What would still win over the switch, in this shell.
    if (ctx.env.DOCSCTL_PROFILE && ctx.env.DOCSCTL_PROFILE !== name)
      ctx.info(`note: DOCSCTL_PROFILE=${ctx.env.DOCSCTL_PROFILE} is set in the environment and wins over the current profile`);
    const overridden = ['DOCSCTL_API_URL', 'DOCSCTL_TOKEN', 'DOCSCTL_ORG'].filter((v) => ctx.env[v]);
    if (overridden.length)
      ctx.info(
        `note: ${overridden.join(', ')} ${overridden.length > 1 ? 'are' : 'is'} set in the environment and override${overridden.length > 1 ? '' : 's'} the profile`,
      );
    return flags.json ? { profile: name, apiUrl: profile.apiUrl ?? null, organization: profile.org ?? null, user: profile.user ?? null } : undefined;
  },
});

/** `https://api.example.com · org-acme · Ada` */
function describe(p: Profile): string {
  return [p.apiUrl, p.org, p.user, p.token ? undefined : 'logged out'].filter(Boolean).join(' · ');
}
