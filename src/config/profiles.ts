/**
 * Profiles and tokens, kept with conf in `<config dir>/config.json` (mode 0600).
 * `DOCSCTL_CONFIG_DIR` moves the folder. The environment (`DOCSCTL_API_URL`, `DOCSCTL_TOKEN`,
 * `DOCSCTL_ORG`) and the global flags (`--profile`, `--org`) override what the profile says.
 * A profile named by `--profile` or `DOCSCTL_PROFILE` must exist (only `auth login` makes one).
 */
import { closeSync, openSync, readFileSync, rmSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import type Conf from 'conf';
import envPaths from 'env-paths';

export interface Profile {
  apiUrl?: string;
  token?: string;
  org?: string;
  /** Display name of the token's user, saved at login. */
  user?: string;
}

interface Schema {
  currentProfile?: string;
  profiles?: Record<string, Profile>;
}

/**
 * The config file cannot be read or written, or names no such profile: the CLI reports it as a
 * usage error (exit 2), with `hint` when given.
 */
export class ConfigError extends Error {
  override name = 'ConfigError';
  constructor(
    message: string,
    readonly hint?: string,
  ) {
    super(message);
  }
}

const PROJECT = { projectName: 'docsctl', projectSuffix: '', configName: 'config' } as const;

/** The config file: `config.json` in `dir` (DOCSCTL_CONFIG_DIR), else in the OS's config folder, as conf places it. */
export function configFile(dir: string | undefined): string {
  return resolve(dir || envPaths(PROJECT.projectName, { suffix: PROJECT.projectSuffix }).config, `${PROJECT.configName}.json`);
}

/**
 * The profiles as they are on disk, read without conf: every command resolves its profile, and conf
 * loads ajv and semver (~25 ms of start-up) for features that reading one JSON file does not need.
 * conf (ProfileStore) writes; a missing file is no profiles.
 */
export function readConfig(dir: string | undefined): Schema {
  const file = configFile(dir);
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw new ConfigError(`cannot read ${file}: ${(e as Error).message}`);
  }
  try {
    const data = JSON.parse(text) as unknown;
    if (typeof data !== 'object' || data === null || Array.isArray(data)) throw new Error('not a JSON object');
    return data as Schema;
  } catch (e) {
    throw new ConfigError(`cannot read ${file}: ${(e as Error).message}`);
  }
}

export class ProfileStore {
  private constructor(private readonly conf: Conf<Schema>) {}

  static async open(dir: string | undefined): Promise<ProfileStore> {
    const { default: ConfCtor } = await import('conf');
    try {
      const conf = new ConfCtor<Schema>({
        // No defaults: opening never writes (a write outside the lock could undo another process's).
        ...PROJECT,
        configFileMode: 0o600,
        ...(dir ? { cwd: dir } : {}),
      });
      return new ProfileStore(conf);
    } catch (e) {
      throw new ConfigError(`cannot read ${configFile(dir)}: ${(e as Error).message}`);
    }
  }

  get path(): string {
    return this.conf.path;
  }

  get current(): string {
    return this.conf.get('currentProfile') ?? 'default';
  }

  /** Every saved profile, by name, in the order they were first saved. */
  all(): Record<string, Profile> {
    return { ...this.profiles() };
  }

  /** Make `name` (a saved profile) the current one. */
  setCurrent(name: string): void {
    withLock(this.conf.path, () => {
      if (!Object.hasOwn(this.profiles(), name)) throw unknownProfile(name, this.names(), 'auth switch', this.conf.path);
      this.conf.set('currentProfile', name);
    });
  }

  private profiles(): Record<string, Profile> {
    return this.conf.get('profiles') ?? {};
  }

  get(name: string): Profile | undefined {
    const profiles = this.profiles();
    return Object.hasOwn(profiles, name) ? profiles[name] : undefined;
  }

  names(): string[] {
    return Object.keys(this.profiles());
  }

  save(name: string, profile: Profile, makeCurrent = true): void {
    // Under the lock, re-read, then write the whole object at once: conf writes atomically
    // (temp file + rename), and the lock keeps a concurrent docsctl's profile from being lost.
    withLock(this.conf.path, () => {
      const profiles = { ...this.profiles(), [name]: profile };
      this.conf.set(makeCurrent ? { profiles, currentProfile: name } : { profiles });
    });
  }

  remove(name: string): boolean {
    return withLock(this.conf.path, () => {
      const profiles = { ...this.profiles() };
      if (!Object.hasOwn(profiles, name)) return false;
      delete profiles[name];
      this.conf.set('profiles', profiles);
      return true;
    });
  }
}

const LOCK_WAIT_MS = 5000;
/** A lock older than this was left by a process that died holding it. */
const LOCK_STALE_MS = 10_000;

/** Run `fn` holding `<file>.lock` (created exclusively), waiting for another docsctl that holds it. */
function withLock<T>(file: string, fn: () => T): T {
  const lock = `${file}.lock`;
  const deadline = Date.now() + LOCK_WAIT_MS;
  for (;;) {
    try {
      closeSync(openSync(lock, 'wx', 0o600));
      break;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      if (lockAge(lock) > LOCK_STALE_MS) rmSync(lock, { force: true });
      else if (Date.now() > deadline) throw new ConfigError(`${file} is locked by another docsctl (${lock}); remove that file if no docsctl is running`);
      else Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 10);
    }
  }
  try {
    return fn();
  } finally {
    rmSync(lock, { force: true });
  }
}

function lockAge(lock: string): number {
  try {
    return Date.now() - statSync(lock).mtimeMs;
  } catch {
    return 0;
  }
}

/**
 * `--profile NAME` (or DOCSCTL_PROFILE) names no saved profile: say so, list the ones there are, and
 * how to make one. `source` is what named it (`--profile`, `DOCSCTL_PROFILE`, `auth switch`).
 */
export function unknownProfile(name: string, names: string[], source: string, file: string): ConfigError {
  const list = names.length ? `the profiles are: ${names.join(', ')}` : `no profile is saved (${file})`;
  const hints = [
    ...(names.length ? ['docsctl auth status lists them'] : []),
    `docsctl --profile ${/^[\w.-]+$/.test(name) ? name : JSON.stringify(name)} auth login saves a new one`,
    ...(source === 'DOCSCTL_PROFILE' ? ['or unset DOCSCTL_PROFILE'] : []),
  ];
  return new ConfigError(`${source}: no profile is named ${JSON.stringify(name)}; ${list}`, hints.join('; '));
}

/**
 * Why `value` cannot be the service's base URL, or undefined when it can: an http(s) URL without
 * credentials, query or fragment, and without the `/v1` that docsctl adds to every path.
 */
export function checkApiUrl(value: string): string | undefined {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return `${JSON.stringify(shorten(value))} is not a URL: give the service's base URL, such as https://api.example.com`;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return `must be an http:// or https:// URL, not ${url.protocol}`;
  if (url.username || url.password) return 'must not hold a user name or password (the token goes in DOCSCTL_TOKEN or auth login)';
  if (url.search || url.hash) return 'must not have a query (?…) or a fragment (#…)';
  if (/\/v1\/*$/.test(url.pathname)) return `must not end in /v1: docsctl adds it to every path (give ${url.origin}${url.pathname.replace(/\/v1\/*$/, '')})`;
  return undefined;
}

function shorten(s: string): string {
  return s.length > 60 ? `${s.slice(0, 60)}…` : s;
}

export interface ResolvedAuth {
  profileName: string;
  apiUrl?: string;
  /** Where the API URL comes from: DOCSCTL_API_URL, or the profile. */
  apiUrlSource?: 'environment' | 'profile';
  token?: string;
  org?: string;
  user?: string;
  tokenSource?: 'environment' | 'profile';
  configPath?: string;
  /** The saved profiles by name, when the config file was read. */
  profiles?: Record<string, Profile>;
}

/**
 * Merge the profile with the environment and flags. Reads the config file only when the env does
 * not say it all and names no profile. A profile named by `--profile` or DOCSCTL_PROFILE that is
 * not saved is a ConfigError listing the ones that are.
 */
export async function resolveAuth(env: NodeJS.ProcessEnv, flags: { profile?: string; org?: string }): Promise<ResolvedAuth> {
  const named =
    flags.profile !== undefined
      ? { name: flags.profile, source: '--profile' }
      : env.DOCSCTL_PROFILE
        ? { name: env.DOCSCTL_PROFILE, source: 'DOCSCTL_PROFILE' }
        : undefined;
  const envAll = env.DOCSCTL_API_URL && env.DOCSCTL_TOKEN && (flags.org || env.DOCSCTL_ORG);
  let profile: Profile = {};
  let profileName = named?.name ?? 'default';
  let configPath: string | undefined;
  let profiles: Record<string, Profile> | undefined;
  if (!envAll || named) {
    const config = readConfig(env.DOCSCTL_CONFIG_DIR);
    configPath = configFile(env.DOCSCTL_CONFIG_DIR);
    profiles = config.profiles && typeof config.profiles === 'object' ? config.profiles : {};
    if (named && !Object.hasOwn(profiles, named.name)) throw unknownProfile(named.name, Object.keys(profiles), named.source, configPath);
    profileName = named?.name ?? config.currentProfile ?? 'default';
    profile = (Object.hasOwn(profiles, profileName) ? profiles[profileName] : undefined) ?? {};
  }
  const token = env.DOCSCTL_TOKEN || profile.token;
  const apiUrl = env.DOCSCTL_API_URL || profile.apiUrl;
  return {
    profileName,
    apiUrl,
    ...(apiUrl ? { apiUrlSource: env.DOCSCTL_API_URL ? ('environment' as const) : ('profile' as const) } : {}),
    token,
    org: flags.org || env.DOCSCTL_ORG || profile.org,
    user: profile.user,
    tokenSource: env.DOCSCTL_TOKEN ? 'environment' : profile.token ? 'profile' : undefined,
    configPath,
    ...(profiles ? { profiles } : {}),
  };
}
