/**
 * Groups name their commands and load each only when it runs (`later`): the manifest (built from
 * every definition) matches what the modules define, and running one command loads only the
 * modules on its path.
 */
import { describe, expect, it } from 'vitest';
import { defineCommand, defineGroup, findDef, later, type CommandDef, type GroupDef } from '../../src/cli/command.js';
import { locate, type Manifest } from '../../src/cli/manifest.js';
import { didYouMean, similar } from '../../src/cli/suggest.js';
import { entries } from '../../src/commands/index.js';
import { buildManifest, toManifest } from '../../src/manifest-build.js';

const leaf = (name: string) => defineCommand({ name, summary: `the ${name} command`, examples: [], run: async () => undefined });

function tree() {
  const loaded: string[] = [];
  const load = (def: CommandDef<any, any> | GroupDef) => async () => {
    loaded.push(def.name);
    return { default: def };
  };
  const group = defineGroup({
    name: 'things',
    summary: 'Things',
    commands: [
      leaf('list'),
      later('get', load(leaf('get'))),
      later('sub', load(defineGroup({ name: 'sub', summary: 'Sub', commands: [later('deep', load(leaf('deep')))] }))),
    ],
  });
  return { group, loaded };
}

describe('a group whose commands load later', () => {
  it('loads only what lies on the path of the command run', async () => {
    const { group, loaded } = tree();
    expect((await findDef(group, ['list'])).name).toBe('list');
    expect(loaded).toEqual([]);
    expect((await findDef(group, ['sub', 'deep'])).name).toBe('deep');
    expect(loaded).toEqual(['sub', 'deep']);
  });

  it('is described in full by its manifest, in order', async () => {
    const { group } = tree();
    const m = await toManifest(group);
    expect(m.kind === 'group' && m.commands.map((c) => c.name)).toEqual(['list', 'get', 'sub']);
  });

  it('refuses a later command whose module defines another name', async () => {
    const group = defineGroup({ name: 'g', summary: 'G', commands: [later('get', async () => ({ default: leaf('show') }))] });
    await expect(toManifest(group)).rejects.toThrow("later('get') loads a definition named show");
    await expect(findDef(group, ['get'])).rejects.toThrow("later('get') loads a definition named show");
  });

  it("holds for docsctl's own tree: every later command is named as its module names it", async () => {
    let commands = 0;
    const walk = (n: Awaited<ReturnType<typeof toManifest>>): void => {
      if (n.kind === 'group') n.commands.forEach(walk);
      else commands++;
    };
    for (const entry of entries) walk(await toManifest((await entry.load()).default));
    expect(commands).toBeGreaterThan(100);
  });

  it('takes the summary and aliases of a top-level entry from its definition only (help, docs and completion read the manifest)', async () => {
    const manifest = await buildManifest('0.0.0-test');
    for (const entry of entries) {
      expect(Object.keys(entry).sort(), `entry ${entry.name} names only where it loads and its section`).toEqual(
        ['load', 'name', 'section', ...('hidden' in entry ? ['hidden'] : [])].sort(),
      );
      const def = (await entry.load()).default;
      const node = manifest.entries.find((e) => e.name === entry.name)!;
      expect({ summary: node.summary, aliases: node.aliases }).toEqual({ summary: def.summary, aliases: def.aliases });
    }
    expect(manifest.entries.find((e) => e.name === 'cr')?.aliases).toEqual(['change-requests']);
  });
});

describe('what the manifest says for completion', () => {
  it('names the values of enum arguments and the ids that arguments and flag values take', async () => {
    const arg = defineCommand({
      name: 'set',
      summary: 'set',
      examples: [],
      run: async () => undefined,
      args: [
        { name: 'space', description: 'a space' },
        { name: 'mode', description: 'a mode', choices: ['on', 'off'] },
        { name: 'text', description: 'free' },
      ],
      flags: {
        before: { description: 'x', value: 'space' },
        to: { description: 'x', value: 'org' },
        title: { description: 'x', value: 'title' },
        level: { description: 'x', value: 'site', choices: ['a'] },
      },
    });
    const m = await toManifest(arg);
    expect(m.kind === 'command' && m.args).toEqual([
      { name: 'space', description: 'a space', ids: 'space' },
      { name: 'mode', description: 'a mode', choices: ['on', 'off'] },
      { name: 'text', description: 'free' },
    ]);
    expect(m.kind === 'command' && Object.fromEntries(m.flags.map((f) => [f.key, f.ids]))).toEqual({
      before: 'space',
      to: 'org',
      title: undefined,
      level: undefined,
    });
  });

  it("holds for docsctl's members set-role: the role is one of the roles", async () => {
    const members = (await entries.find((e) => e.name === 'members')!.load()).default;
    const m = await toManifest(members);
    const setRole = m.kind === 'group' ? m.commands.find((c) => c.name === 'set-role') : undefined;
    expect(setRole?.kind === 'command' && setRole.args).toEqual([
      expect.objectContaining({ name: 'user', ids: 'user' }),
      expect.objectContaining({ name: 'role', choices: ['admin', 'create', 'review', 'edit', 'comment', 'read', 'guest'] }),
    ]);
  });

  it('locates the command a line names, through aliases and global flags', async () => {
    const manifest: Manifest = { version: '0', entries: [{ ...(await toManifest(tree().group)), section: 'S:', aliases: ['t'] }] };
    const names = (argv: string[]) => locate(manifest, argv, ['--org']).nodes.map((n) => n.name);
    expect(names(['things', 'get', 'x'])).toEqual(['things', 'get']);
    expect(names(['--org', 'things', 't', 'sub', 'deep'])).toEqual(['things', 'sub', 'deep']);
    expect(names(['--org', 'o', 't', 'sub', '--json', 'deep'])).toEqual(['things', 'sub', 'deep']);
    expect(locate(manifest, ['things', 'nope', 'x'], []).rest).toEqual(['nope', 'x']);
  });
});

describe('did you mean', () => {
  it('suggests close names, an alias as its command, and nothing when nothing is close', () => {
    expect(didYouMean('lst', [{ name: 'list', aliases: ['ls'] }, { name: 'links' }])).toBe('Did you mean list?');
    expect(didYouMean('sectons', ['sections', 'section-groups', 'spaces'])).toBe('Did you mean sections?');
    expect(didYouMean('crate', ['create', 'get'])).toBe('Did you mean create?');
    expect(didYouMean('lmit', ['limit', 'all', 'page'])).toBe('Did you mean limit?');
    expect(didYouMean('vebrose', ['verbose'])).toBe('Did you mean verbose?');
    expect(didYouMean('co', ['collections', 'comments', 'tree'])).toBe('Did you mean collections or comments?');
    expect(didYouMean('nothing', ['spaces', 'sites', 'ping', 'content'])).toBe('');
    expect(similar('x', ['y', 'xx'])).toEqual([]);
    // Flags: compared without their dashes, suggested with them.
    expect(didYouMean('--lmit', ['--limit', '--all'], '--')).toBe('Did you mean --limit?');
    expect(didYouMean('--ord', ['--order', '--org', '--json'], '--')).toBe('Did you mean --order or --org?');
  });
});
