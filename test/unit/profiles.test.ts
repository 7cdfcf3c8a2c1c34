/** The config file read without conf (readConfig) is the very file conf writes (ProfileStore). */
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError, ProfileStore, checkApiUrl, configFile, readConfig, resolveAuth } from '../../src/config/profiles.js';

const tmp = mkdtempSync(join(tmpdir(), 'docsctl-profiles-'));
const savedXdg = process.env.XDG_CONFIG_HOME;
afterAll(() => {
  if (savedXdg === undefined) delete process.env.XDG_CONFIG_HOME;
  else process.env.XDG_CONFIG_HOME = savedXdg;
  rmSync(tmp, { recursive: true, force: true });
});

describe('the config file', () => {
  it('is where conf keeps it, with and without DOCSCTL_CONFIG_DIR', async () => {
    process.env.XDG_CONFIG_HOME = join(tmp, 'xdg'); // never the real home
    expect(configFile(undefined)).toBe((await ProfileStore.open(undefined)).path);
    expect(configFile(undefined)).toBe(join(tmp, 'xdg', 'docsctl', 'config.json'));
    const dir = join(tmp, 'dir');
    expect(configFile(dir)).toBe((await ProfileStore.open(dir)).path);
  });

  it('reads what conf wrote', async () => {
    const dir = join(tmp, 'written');
    const store = await ProfileStore.open(dir);
    store.save('staging', { apiUrl: 'http://127.0.0.1:1', token: 't', org: 'o', user: 'Ada' });
    store.save('other', { token: 'u' }, false);
    expect(readConfig(dir)).toEqual({
      currentProfile: 'staging',
      profiles: { staging: { apiUrl: 'http://127.0.0.1:1', token: 't', org: 'o', user: 'Ada' }, other: { token: 'u' } },
    });
  });

  it('is no profiles when missing, and reading it creates nothing', () => {
    const dir = join(tmp, 'none');
    expect(readConfig(dir)).toEqual({});
    expect(existsSync(dir)).toBe(false);
  });

  it('that is not a JSON object is a ConfigError naming the file', () => {
    const dir = mkdtempSync(join(tmp, 'bad-'));
    for (const text of ['{ not json', '[]', 'null', '"x"']) {
      writeFileSync(join(dir, 'config.json'), text);
      expect(() => readConfig(dir)).toThrow(ConfigError);
      expect(() => readConfig(dir)).toThrow(`cannot read ${join(dir, 'config.json')}: `);
    }
  });
});

describe('profiles by name', () => {
  it('setCurrent makes a saved profile current, and refuses one that is not saved, listing them', async () => {
    const dir = join(tmp, 'switch');
    const store = await ProfileStore.open(dir);
    store.save('a', { token: 'ta' });
    store.save('b', { token: 'tb' });
    expect(readConfig(dir).currentProfile).toBe('b');
    store.setCurrent('a');
    expect(readConfig(dir).currentProfile).toBe('a');
    expect(() => store.setCurrent('nope')).toThrow('auth switch: no profile is named "nope"; the profiles are: a, b');
    expect(() => store.setCurrent('constructor')).toThrow(ConfigError);
    expect(readConfig(dir).currentProfile).toBe('a');
  });

  it('resolveAuth refuses a --profile or DOCSCTL_PROFILE that names no saved profile, even when the environment says it all', async () => {
    const dir = join(tmp, 'named');
    (await ProfileStore.open(dir)).save('work', { apiUrl: 'http://127.0.0.1:1', token: 'tw', org: 'o' });
    const all = { DOCSCTL_CONFIG_DIR: dir, DOCSCTL_API_URL: 'http://127.0.0.1:2', DOCSCTL_TOKEN: 't', DOCSCTL_ORG: 'o' };
    await expect(resolveAuth(all, { profile: 'nope' })).rejects.toThrow('--profile: no profile is named "nope"; the profiles are: work');
    await expect(resolveAuth({ ...all, DOCSCTL_PROFILE: 'nope' }, {})).rejects.toThrow('DOCSCTL_PROFILE: no profile is named "nope"');
    await expect(resolveAuth({ DOCSCTL_CONFIG_DIR: dir }, { profile: '__proto__' })).rejects.toThrow(ConfigError);
    expect(await resolveAuth({ ...all, DOCSCTL_PROFILE: '' }, {})).toMatchObject({ apiUrl: 'http://127.0.0.1:2', apiUrlSource: 'environment' });
    expect(await resolveAuth({ DOCSCTL_CONFIG_DIR: dir }, { profile: 'work' })).toMatchObject({
      apiUrl: 'http://127.0.0.1:1',
      apiUrlSource: 'profile',
      profileName: 'work',
    });
  });
});

describe('checkApiUrl', () => {
  it('takes an http(s) base URL, with or without a path prefix', () => {
    for (const ok of ['http://127.0.0.1:4700', 'https://api.example.test', 'https://example.test/api', 'https://example.test/api/'])
      expect(checkApiUrl(ok), ok).toBeUndefined();
  });

  it('says what is wrong with anything else', () => {
    expect(checkApiUrl('notaurl')).toContain('"notaurl" is not a URL');
    expect(checkApiUrl('ftp://x.test')).toBe('must be an http:// or https:// URL, not ftp:');
    expect(checkApiUrl('https://u:p@x.test')).toContain('must not hold a user name or password');
    expect(checkApiUrl('https://x.test/?a=1')).toContain('must not have a query');
    expect(checkApiUrl('https://x.test/v1/')).toBe('must not end in /v1: docsctl adds it to every path (give https://x.test)');
  });
});
