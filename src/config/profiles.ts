/**
 * Profiles and tokens, kept with conf in `<config dir>/config.json` (mode 0600).
 * `DOCSCTL_CONFIG_DIR` moves the folder. The environment (`DOCSCTL_API_URL`, `DOCSCTL_TOKEN`,
 * `DOCSCTL_ORG`) and the global flags (`--profile`, `--org`) override what the profile says.
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

/** The config file cannot be read or written (the CLI reports it as a usage error naming the file). */
export class ConfigError extends Error {
  override name = 'ConfigError';
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
        ...PROJECT, configFileMode: 0o600,
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

  private profiles(): Record<string, Profile> {
    return this.conf.get('profiles') ?? {};
  }

  get(name: string): Profile | undefined {
    return this.profiles()[name];
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
      if (!(name in profiles)) return false;
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

export interface ResolvedAuth {
  profileName: string;
  apiUrl?: string;
  token?: string;
  org?: string;
  user?: string;
  tokenSource?: 'environment' | 'profile';
  configPath?: string;
}

/** Merge the profile with the environment and flags. Reads the config file only when the env does not say it all. */
export async function resolveAuth(
  env: NodeJS.ProcessEnv,
  flags: { profile?: string; org?: string },
): Promise<ResolvedAuth> {
  const envAll = env.DOCSCTL_API_URL && env.DOCSCTL_TOKEN && (flags.org || env.DOCSCTL_ORG);
  let profile: Profile = {};
  let profileName = flags.profile ?? env.DOCSCTL_PROFILE ?? 'default';
  let configPath: string | undefined;
  if (!envAll || flags.profile) {
    const config = readConfig(env.DOCSCTL_CONFIG_DIR);
    profileName = flags.profile ?? env.DOCSCTL_PROFILE ?? config.currentProfile ?? 'default';
    profile = config.profiles?.[profileName] ?? {};
    configPath = configFile(env.DOCSCTL_CONFIG_DIR);
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
