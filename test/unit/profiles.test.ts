/** The config file read without conf (readConfig) is the very file conf writes (ProfileStore). */
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError, ProfileStore, configFile, readConfig } from '../../src/config/profiles.js';

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
