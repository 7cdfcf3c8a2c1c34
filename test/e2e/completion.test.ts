/**
 * Completion scripts: generated from the command tree, kept in completions/ (in sync), and loaded
 * into a real bash that completes commands, flags, enum values and ids from the sandbox.
 */
import { mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { BIN } from '../helpers/cli.js';
import { useSandbox } from '../helpers/inprocess.js';
import { HAS_TMUX, installed, Terminal } from '../helpers/terminal.js';

const sb = useSandbox();
const root = resolve(import.meta.dirname, '../..');

/** Complete `line` in bash with the generated script; returns the candidates. */
async function complete(line: string): Promise<string[]> {
  const binDir = mkdtempSync(join(tmpdir(), 'docsctl-bin-'));
  symlinkSync(BIN, join(binDir, 'docsctl'));
  const words = line.split(' ');
  const script = [
    `source ${join(root, 'completions/docsctl.bash')}`,
    `COMP_WORDS=(${words.map((w) => `'${w}'`).join(' ')})`,
    `COMP_CWORD=${words.length - 1}`,
    '_docsctl',
    'printf "%s\\n" "${COMPREPLY[@]}"',
  ].join('\n');
  const r = await execa('bash', ['--norc', '--noprofile', '-c', script], {
    env: {
      PATH: `${binDir}:${process.env.PATH}`,
      HOME: sb.home,
      TMPDIR: sb.home,
      DOCSCTL_CONFIG_DIR: sb.home,
      DOCSCTL_API_URL: sb.server.url,
      DOCSCTL_TOKEN: sb.token('admin'),
      DOCSCTL_ORG: 'org-acme',
      // The 300 ms default is for people; a loaded test machine gets more.
      DOCSCTL_COMPLETE_TIMEOUT_MS: '5000',
    },
    extendEnv: false,
  });
  return r.stdout.split('\n').filter(Boolean).sort();
}

describe('shell completion', () => {
  it('completions/ is what `docsctl completion` generates from the current tree', async () => {
    for (const [shell, file] of [
      ['bash', 'docsctl.bash'],
      ['zsh', '_docsctl'],
      ['fish', 'docsctl.fish'],
    ]) {
      // The built binary: a script names the version of the build that made it.
      const r = await sb.process(['completion', shell]);
      expect(r.exitCode).toBe(0);
      expect(readFileSync(join(root, 'completions', file), 'utf8'), `completions/${file} is stale: run npm run docs`).toBe(r.stdout + '\n');
    }
    const bad = await sb.run(['completion', 'tcsh']);
    expect(bad.exitCode).toBe(2);
  });

  it('docs/commands.md is generated from the current tree', async () => {
    const r = await sb.run(['__docs']);
    expect(readFileSync(join(root, 'docs/commands.md'), 'utf8'), 'docs/commands.md is stale: run npm run docs').toBe(r.stdout + '\n');
    expect(r.stdout).toContain('## docsctl collections');
  });

  it('bash completes commands, subcommands, flags and enum values', async () => {
    expect(await complete('docsctl col')).toEqual(['collections']);
    expect(await complete('docsctl compl')).toEqual(['completion']);
    expect(await complete('docsctl sp')).toEqual(['spaces']);
    expect(await complete('docsctl collections ')).toEqual(expect.arrayContaining(['create', 'delete', 'get', 'list', 'move', 'transfer']));
    expect(await complete('docsctl collections list --a')).toEqual(['--all']);
    expect(await complete('docsctl collections update x --default-level ')).toEqual([
      'admin',
      'comment',
      'create',
      'edit',
      'inherit',
      'null',
      'read',
      'review',
    ]);
    // global options with values are skipped when finding the command
    expect(await complete('docsctl --org org-acme collections tr')).toEqual(['transfer']);
  });

  it('id completion gives up on a server that does not answer, printing nothing', async () => {
    const { createServer } = await import('node:http');
    const silent = createServer(() => {}); // accepts, never answers
    await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r));
    try {
      const url = `http://127.0.0.1:${(silent.address() as import('node:net').AddressInfo).port}`;
      const started = Date.now();
      // A process: its cache of ids is in TMPDIR, which main() in this process would not see (os.tmpdir()).
      const r = await sb.process(['__complete', 'ids', 'space'], { env: { DOCSCTL_API_URL: url, TMPDIR: sb.home } });
      expect(r.exitCode).toBe(0);
      expect(r.stdout).toBe('');
      expect(r.stderr).toBe('');
      // The request gives up after 300 ms; node's own start is the rest.
      expect(Date.now() - started).toBeLessThan(5000);
    } finally {
      silent.closeAllConnections();
      silent.close();
    }
  });

  it('bash completes ids from the sandbox', async () => {
    expect(await complete('docsctl collections get ')).toEqual(['col-handbook']);
    expect(await complete('docsctl spaces get sp-')).toEqual(['sp-welcome']);
    expect(await complete('docsctl collections move col-handbook --before ')).toEqual(['sp-welcome']);
  });

  it('an alias completes as its command does; names come before aliases', async () => {
    expect(await complete('docsctl spaces ls --l')).toEqual(['--limit']);
    expect(await complete('docsctl spaces list --l')).toEqual(['--limit']);
    expect(await complete('docsctl change-requests ')).toEqual(await complete('docsctl cr '));
    expect(await complete('docsctl change-requests ')).toEqual(expect.arrayContaining(['list', 'merge', 'get']));
    expect(await complete('docsctl change-requests list --s')).toEqual(['--status']);
    expect(await complete('docsctl change-requests list --status ')).toEqual(['all', 'archived', 'draft', 'merged', 'open']);
    expect(await complete('docsctl cr ls --status ')).toEqual(['all', 'archived', 'draft', 'merged', 'open']);
    // Typed, an alias completes; among names it is not offered twice.
    expect(await complete('docsctl change-r')).toEqual(['change-requests']);
    expect(await complete('docsctl spaces l')).toEqual(['links', 'list']);
    expect(await complete('docsctl spaces get --o')).toEqual(['--org']);
    expect(await complete('docsctl spaces view --o')).toEqual(['--org']);
  });

  it('enum arguments and flags complete their values', async () => {
    const roles = ['admin', 'comment', 'create', 'edit', 'guest', 'read', 'review'];
    expect(await complete('docsctl members set-role u-edit ')).toEqual(roles);
    expect(await complete('docsctl members set-role u-edit g')).toEqual(['guest']);
    expect(await complete('docsctl --org org-acme members set-role u-edit ')).toEqual(roles);
    expect(await complete('docsctl sites create --visibility ')).toEqual(['public', 'share-link', 'unlisted', 'visitor-auth']);
    expect(await complete('docsctl sites update site-x --visibility u')).toEqual(['unlisted']);
    // A flag's value is not taken for an argument: the role is still the second one.
    expect(await complete('docsctl members set-role --yes u-edit ')).toEqual(roles);
  });

  it('--org completes organization ids, anywhere on the line; ids come from the organization typed', async () => {
    expect(await complete('docsctl --org ')).toEqual(['org-acme', 'org-globex']);
    expect(await complete('docsctl spaces list --org org-g')).toEqual(['org-globex']);
    expect(await complete('docsctl members set-role ')).toEqual(['u-admin', 'u-comment', 'u-create', 'u-edit', 'u-guest', 'u-read', 'u-review']);
    expect(await complete('docsctl --org org-globex members set-role ')).toEqual(['u-admin', 'u-outsider']);
    expect(await complete('docsctl members get --org org-globex ')).toEqual(['u-admin', 'u-outsider']);
  });

  it('--profile completes the names of the saved profiles', async () => {
    writeFileSync(
      join(sb.home, 'config.json'),
      JSON.stringify({
        currentProfile: 'default',
        profiles: { default: { apiUrl: sb.server.url, org: 'org-acme' }, staging: { apiUrl: 'https://docs.example.com', org: 'org-globex' } },
      }),
    );
    expect(await complete('docsctl --profile ')).toEqual(['default', 'staging']);
    expect(await complete('docsctl spaces list --profile s')).toEqual(['staging']);
    expect((await sb.run(['__complete', 'ids', 'profile'])).stdout).toBe(
      `default\torg-acme · ${sb.server.url}\nstaging\torg-globex · https://docs.example.com`,
    );
  });

  it('docsctl api completes the operation ids of the official document (the table the build made)', async () => {
    expect(await complete('docsctl api listSpacesIn')).toEqual(['listSpacesInCollectionById', 'listSpacesInOrganizationById']);
    expect(await complete('docsctl api /v1/')).toEqual([]);
    const lines = (await sb.run(['__complete', 'ids', 'operation'])).stdout.split('\n');
    const doc = JSON.parse(readFileSync(join(root, 'node_modules/@gitbook/api/spec/openapi.json'), 'utf8'));
    const ids = Object.values(doc.paths as Record<string, Record<string, { operationId?: string }>>).flatMap((item) =>
      Object.values(item).flatMap((op) => (op?.operationId ? [op.operationId] : [])),
    );
    expect(lines.map((l) => l.split('\t')[0]).sort()).toEqual(ids.sort());
    expect(lines).toContain('createOrganizationTeam\tCreate a team');
  });

  it('docsctl help completes command names', async () => {
    expect(await complete('docsctl hel')).toEqual(['help']);
    expect(await complete('docsctl help sp')).toEqual(['spaces']);
    expect(await complete('docsctl help spaces li')).toEqual(['links', 'list']);
  });

  it('__complete ids prints each id with its title, tab-separated', async () => {
    // Processes: the cache of ids is in TMPDIR (os.tmpdir(), which main() in this process would not take from env).
    const env = { TMPDIR: sb.home, DOCSCTL_COMPLETE_TIMEOUT_MS: '5000' };
    expect((await sb.process(['__complete', 'ids', 'space'], { env })).stdout).toBe('sp-welcome\t👋 Welcome');
    expect((await sb.process(['__complete', 'ids', 'org'], { env })).stdout).toBe('org-acme\tAcme Docs\norg-globex\tGlobex');
    expect((await sb.process(['__complete', 'ids', 'user', '--org', 'org-globex'], { env })).stdout.split('\n').sort()).toEqual([
      'u-admin\tAda Admin',
      'u-outsider\tOlga Outsider',
    ]);
    // The org's ids are cached by organization: another organization asks again.
    expect((await sb.process(['__complete', 'ids', 'collection', '--org', 'org-globex'], { env })).stdout).toBe('');
    expect((await sb.process(['__complete', 'ids', 'collection'], { env })).stdout).toBe('col-handbook\tHandbook');
  });
});

/** A PATH where `docsctl` is the built bin. */
function binPath(): string {
  const binDir = mkdtempSync(join(tmpdir(), 'docsctl-bin-'));
  symlinkSync(BIN, join(binDir, 'docsctl'));
  return `${binDir}:${process.env.PATH}`;
}

const shellEnv = () => ({
  PATH: binPath(),
  HOME: sb.home,
  TMPDIR: sb.home,
  DOCSCTL_CONFIG_DIR: sb.home,
  DOCSCTL_API_URL: sb.server.url,
  DOCSCTL_TOKEN: sb.token('admin'),
  DOCSCTL_ORG: 'org-acme',
  DOCSCTL_COMPLETE_TIMEOUT_MS: '5000',
});

/** A zsh at a terminal with the generated completion loaded, its prompt `zsh> `. */
async function zshTerminal(): Promise<Terminal> {
  const t = Terminal.run('exec zsh -f -i', shellEnv());
  await t.waitFor(/[#%] ?$/m);
  t.type(`fpath=(${join(root, 'completions')} $fpath); autoload -U compinit; compinit -u -D; PS1='zsh> '`);
  t.press('Enter');
  await t.waitFor(/^zsh> ?$/m);
  return t;
}

/** Clear the line being edited and wait for the empty prompt. */
async function clearLine(t: Terminal, prompt: RegExp): Promise<void> {
  t.press('C-e', 'C-u');
  await t.waitFor(prompt);
}

describe.skipIf(!HAS_TMUX || !installed('zsh'))('zsh completion, typed at a real zsh', () => {
  it('completes a command and a space id with TAB', async () => {
    const t = await zshTerminal();
    try {
      t.type('docsctl spa');
      t.press('Tab');
      await t.waitFor(/docsctl spaces\s*$/m);
      t.type('get sp-');
      t.press('Tab');
      await t.waitFor(/docsctl spaces get sp-welcome/);
    } finally {
      t.close();
    }
  });

  it('lists ids with their titles, completes --org, aliases and enum values', async () => {
    const t = await zshTerminal();
    try {
      t.type('docsctl --org ');
      t.press('Tab');
      await t.waitFor(/docsctl --org org-\s*$/m);
      t.press('Tab');
      await t.waitFor(/org-acme\s+-- Acme Docs/);
      await t.waitFor(/org-globex\s+-- Globex/);
      await clearLine(t, /^zsh> ?$/m);
      t.type('docsctl members set-role u-a');
      t.press('Tab');
      await t.waitFor(/docsctl members set-role u-admin\s*$/m);
      t.type(' gu');
      t.press('Tab');
      await t.waitFor(/docsctl members set-role u-admin guest\s*$/m);
      await clearLine(t, /^zsh> ?$/m);
      t.type('docsctl spaces ls --li');
      t.press('Tab');
      await t.waitFor(/docsctl spaces ls --limit\s*$/m);
      await clearLine(t, /^zsh> ?$/m);
      t.type('docsctl change-requests mer');
      t.press('Tab');
      await t.waitFor(/docsctl change-requests merge\s*$/m);
    } finally {
      t.close();
    }
  });
});

/** What fish offers for `line` (its `complete -C`): `value<TAB>description` lines, sorted. */
async function fishComplete(line: string): Promise<string[]> {
  const script = `source ${join(root, 'completions/docsctl.fish')}; complete -C ${`'${line.replace(/'/g, `\\'`)}'`}`;
  const r = await execa('fish', ['--no-config', '-c', script], { env: shellEnv(), extendEnv: false });
  return r.stdout.split('\n').filter(Boolean).sort();
}

describe.skipIf(!installed('fish'))('fish completion, asked with complete -C', () => {
  it('gives ids with their titles, --org, aliases and enum values', async () => {
    expect(await fishComplete('docsctl spaces get ')).toEqual(['sp-welcome\t👋 Welcome']);
    expect(await fishComplete('docsctl --org ')).toEqual(['org-acme\tAcme Docs', 'org-globex\tGlobex']);
    expect(await fishComplete('docsctl --org org-globex members set-role ')).toEqual(['u-admin\tAda Admin', 'u-outsider\tOlga Outsider']);
    expect(await fishComplete('docsctl members set-role u-edit ')).toEqual(['admin', 'comment', 'create', 'edit', 'guest', 'read', 'review']);
    expect(await fishComplete('docsctl sites create --visibility ')).toEqual(['public', 'share-link', 'unlisted', 'visitor-auth']);
    expect(await fishComplete('docsctl spaces ls --li')).toEqual(['--limit\tat most N items in all (default 30)']);
    expect((await fishComplete('docsctl change-requests ')).map((l) => l.split('\t')[0])).toEqual(expect.arrayContaining(['list', 'merge']));
    expect(await fishComplete('docsctl change-r')).toEqual(['change-requests']);
  });
});

describe.skipIf(!HAS_TMUX || !installed('fish'))('fish completion, typed at a real fish', () => {
  it('completes a command and a space id with TAB', async () => {
    const t = Terminal.run(`exec fish --no-config -C 'source ${join(root, 'completions/docsctl.fish')}; function fish_prompt; echo "> "; end'`, shellEnv());
    try {
      await t.waitFor(/^>/m);
      t.type('docsctl spa');
      t.press('Tab');
      await t.waitFor(/docsctl spaces\s*$/m);
      t.type('get sp-');
      t.press('Tab');
      await t.waitFor(/docsctl spaces get sp-welcome/);
    } finally {
      t.close();
    }
  });

  it('lists organization ids with their titles for --org', async () => {
    const t = Terminal.run(`exec fish --no-config -C 'source ${join(root, 'completions/docsctl.fish')}; function fish_prompt; echo "> "; end'`, shellEnv());
    try {
      await t.waitFor(/^>/m);
      t.type('docsctl --org ');
      t.press('Tab');
      await t.waitFor(/docsctl --org org-/);
      t.press('Tab');
      await t.waitFor(/org-acme\s+\(Acme Docs\)/);
      await t.waitFor(/org-globex\s+\(Globex\)/);
    } finally {
      t.close();
    }
  });
});

describe('completion of ids and files (issue 23)', () => {
  it('flags that take ids complete ids: --parent collections, --space spaces', async () => {
    const collections = ['col-handbook'];
    for (const line of [
      'docsctl spaces list --parent ',
      'docsctl spaces create --parent ',
      'docsctl collections create --parent ',
      'docsctl spaces move sp-welcome --parent ',
    ]) {
      expect(await complete(line), line).toEqual(collections);
    }
    for (const line of [
      'docsctl sites create --space ',
      'docsctl sites list --space ',
      'docsctl sites sections add site-x --space ',
      'docsctl sites spaces update site-x ss-1 --space ',
    ]) {
      expect(await complete(line), line).toEqual(['sp-welcome']);
    }
  });

  it('files only where a file is meant; any other value completes to nothing, never to files', async () => {
    // The shell's own fallback to file names is off.
    const spec = await execa('bash', ['--norc', '--noprofile', '-c', `source ${join(root, 'completions/docsctl.bash')}; complete -p docsctl`]);
    expect(spec.stdout).toBe('complete -F _docsctl docsctl');
    // Run from the repository: README.md is a file there.
    for (const line of [
      'docsctl api --input READ',
      'docsctl orgs plan -f READ',
      'docsctl sites schema set site-x READ',
      'docsctl openapi create pets --file READ',
    ]) {
      expect(await complete(line), line).toEqual(['README.md']);
    }
    for (const line of [
      'docsctl spaces create --title READ',
      'docsctl comments get sp-welcome c-1 --reply READ',
      'docsctl content file sp-welcome READ',
      'docsctl sites sections add site-x --template READ',
      'docsctl content backlinks sp-welcome --file READ',
      'docsctl sites update site-x --basename READ',
    ]) {
      expect(await complete(line), line).toEqual([]);
    }
    expect(await complete('docsctl completion ')).toEqual(['bash', 'fish', 'zsh']);
  });

  it('change request numbers come from the space typed before them: any status for cr get, open and drafts for cr merge', async () => {
    const space = (await sb.run(['spaces', 'create', '--title', 'Other', '--jq', '.id'])).stdout;
    // sp-welcome: #1 open, #2 draft, #3 merged, #4 archived; the other space: #1 draft.
    for (const subject of ['Open', 'Draft', 'Merged', 'Archived']) await sb.run(['cr', 'create', 'sp-welcome', '--subject', subject]);
    await sb.run(['cr', 'edit', 'sp-welcome', '1', '--status', 'open']);
    expect((await sb.run(['cr', 'merge', 'sp-welcome', '3', '--yes'])).exitCode).toBe(0);
    await sb.run(['cr', 'edit', 'sp-welcome', '4', '--status', 'archived']);
    await sb.run(['cr', 'create', space, '--subject', 'Elsewhere']);

    expect(await complete('docsctl cr get sp-welcome ')).toEqual(['1', '2', '3', '4']);
    expect(await complete('docsctl change-requests pages sp-welcome ')).toEqual(['1', '2', '3', '4']);
    expect(await complete('docsctl cr merge sp-welcome ')).toEqual(['1', '2']);
    expect(await complete(`docsctl cr merge ${space} `)).toEqual(['1']);
    expect(await complete('docsctl cr merge --yes sp-welcome ')).toEqual(['1', '2']);
    expect(await complete('docsctl comments list sp-welcome --cr ')).toEqual(['1', '2', '3', '4']);
    expect(await complete(`docsctl comments post ${space} --cr `)).toEqual(['1']);
    // Before the space is typed there is nothing to number: the space is what completes.
    expect(await complete('docsctl cr merge ')).toEqual(expect.arrayContaining(['sp-welcome']));
    expect(await complete('docsctl comments list --cr ')).toEqual([]);
    const env = { TMPDIR: sb.home, DOCSCTL_COMPLETE_TIMEOUT_MS: '5000' };
    expect((await sb.run(['__complete', 'ids', 'mergeable-cr', '--space', 'sp-welcome'], { env })).stdout).toBe('1\topen · Open\n2\tdraft · Draft');
    expect((await sb.run(['__complete', 'ids', 'cr'], { env })).stdout).toBe('');
  });
});

describe.skipIf(!installed('fish'))('fish: ids and files (issue 23)', () => {
  it('change request numbers of the space typed, with their status; files only where meant', async () => {
    // A space of this test's own (ids are cached for a minute).
    const space = (await sb.run(['spaces', 'create', '--title', 'Fish', '--jq', '.id'])).stdout;
    await sb.run(['cr', 'create', space, '--subject', 'Fix typos']);
    expect(await fishComplete(`docsctl cr merge ${space} `)).toEqual(['1\tdraft · Fix typos']);
    expect(await fishComplete(`docsctl comments list ${space} --cr `)).toEqual(['1\tdraft · Fix typos']);
    expect(await fishComplete('docsctl comments list --cr ')).toEqual([]);
    expect(await fishComplete('docsctl spaces list --parent ')).toEqual(['col-handbook\tHandbook']);
    expect(await fishComplete(`docsctl api --input ${join(root, 'READ')}`)).toEqual([join(root, 'README.md')]);
    expect(await fishComplete(`docsctl spaces create --title ${join(root, 'READ')}`)).toEqual([]);
  });
});

describe.skipIf(!HAS_TMUX || !installed('zsh'))('zsh: change request numbers (issue 23)', () => {
  it("cr merge SPACE <TAB> lists the space's change requests with their status and subject", async () => {
    const space = (await sb.run(['spaces', 'create', '--title', 'Zsh', '--jq', '.id'])).stdout;
    await sb.run(['cr', 'create', space, '--subject', 'Fix typos']);
    await sb.run(['cr', 'create', space, '--subject', 'New guide']);
    const t = await zshTerminal();
    try {
      t.type(`docsctl cr merge ${space} `);
      t.press('Tab');
      await t.waitFor(/1\s+-- draft · Fix typos/);
      await t.waitFor(/2\s+-- draft · New guide/);
      await clearLine(t, /^zsh> ?$/m);
      t.type('docsctl spaces create --parent ');
      t.press('Tab');
      await t.waitFor(/docsctl spaces create --parent col-handbook\s*$/m);
    } finally {
      t.close();
    }
  });
});
