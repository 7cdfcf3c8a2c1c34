/**
 * Profiles and tokens, kept with conf in `<config dir>/config.json` (mode 0600).
 * `DOCSCTL_CONFIG_DIR` moves the folder. The environment (`DOCSCTL_API_URL`, `DOCSCTL_TOKEN`,
 * `DOCSCTL_ORG`) and the global flags (`--profile`, `--org`) override what the profile says.
 */
import type Conf from 'conf';

export interface Profile {
  apiUrl?: string;
  token?: string;
  org?: string;
  /** Display name of the token's user, saved at login. */
  user?: string;
}

interface Schema {
  currentProfile?: string;
  profiles: Record<string, Profile>;
}

export class ConfigError extends Error {}

export class ProfileStore {
  private constructor(private readonly conf: Conf<Schema>) {}

  static async open(dir: string | undefined): Promise<ProfileStore> {
    const { default: ConfCtor } = await import('conf');
    try {
      const conf = new ConfCtor<Schema>({
        projectName: 'docsctl', projectSuffix: '', configName: 'config', configFileMode: 0o600,
        defaults: { profiles: {} }, ...(dir ? { cwd: dir } : {}),
      });
      return new ProfileStore(conf);
    } catch (e) {
      const where = dir ? `${dir}/config.json` : 'the docsctl config file';
      throw new ConfigError(`cannot read ${where}: ${(e as Error).message}. Fix or remove the file, then run docsctl auth login`);
    }
  }

  get path(): string {
    return this.conf.path;
  }

  get current(): string {
    return this.conf.get('currentProfile') ?? 'default';
  }

  get(name: string): Profile | undefined {
    return this.conf.get('profiles')[name];
  }

  names(): string[] {
    return Object.keys(this.conf.get('profiles'));
  }

  save(name: string, profile: Profile, makeCurrent = true): void {
    // Re-read, then write the whole object: conf writes atomically (temp file + rename).
    const profiles = { ...this.conf.get('profiles'), [name]: profile };
    this.conf.set('profiles', profiles);
    if (makeCurrent) this.conf.set('currentProfile', name);
  }

  remove(name: string): boolean {
    const profiles = { ...this.conf.get('profiles') };
    if (!(name in profiles)) return false;
    delete profiles[name];
    this.conf.set('profiles', profiles);
    return true;
  }
}

export interface ResolvedAuth {
  profileName: string;
  apiUrl?: string;
  token?: string;
  org?: string;
  user?: string;
  tokenSource?: 'environment' | 'profile';
  configPath?: string;
}

/** Merge the profile with the environment and flags. Loads conf only when the env does not say it all. */
export async function resolveAuth(
  env: NodeJS.ProcessEnv,
  flags: { profile?: string; org?: string },
): Promise<ResolvedAuth> {
  const envAll = env.DOCSCTL_API_URL && env.DOCSCTL_TOKEN && (flags.org || env.DOCSCTL_ORG);
  let profile: Profile = {};
  let profileName = flags.profile ?? env.DOCSCTL_PROFILE ?? 'default';
  let configPath: string | undefined;
  if (!envAll || flags.profile) {
    const store = await ProfileStore.open(env.DOCSCTL_CONFIG_DIR);
    profileName = flags.profile ?? env.DOCSCTL_PROFILE ?? store.current;
    profile = store.get(profileName) ?? {};
    configPath = store.path;
  }
  const token = env.DOCSCTL_TOKEN || profile.token;
  return {
    profileName,
    apiUrl: env.DOCSCTL_API_URL || profile.apiUrl,
    token,
    org: flags.org || env.DOCSCTL_ORG || profile.org,
    user: profile.user,
    tokenSource: env.DOCSCTL_TOKEN ? 'environment' : profile.token ? 'profile' : undefined,
    configPath,
  };
}
