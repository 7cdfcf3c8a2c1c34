/**
 * Shell completion scripts generated from the command manifest: commands, subcommands, flags and
 * enum values are written into the script; ids (spaces, collections, sites, change requests) are
 * completed at TAB time by `docsctl __complete ids KIND`, which answers from a short cache or within
 * ~300 ms, never blocking the shell for long.
 */
import type { Manifest, ManifestCommand, ManifestNode } from './manifest.js';
import { kebab } from './command.js';

export const SHELLS = ['bash', 'zsh', 'fish'] as const;
export type Shell = (typeof SHELLS)[number];

/** Argument names whose values are ids that `__complete ids` can list. */
export const ID_KINDS: Record<string, string> = {
  space: 'space', collection: 'collection', site: 'site', cr: 'cr', 'change-request': 'cr',
};

const GLOBAL_VALUE_FLAGS = ['--profile', '--org', '--timeout'];
const GLOBAL_FLAGS = ['--profile', '--org', '--timeout', '--verbose', '--no-input', '--no-color', '--help'];

interface Row {
  path: string; // 'docsctl spaces list'
  subs: string[];
  flags: string[];
  valueFlags: string[];
  choices: Record<string, string[]>;
  args: string[]; // id kinds of positional args ('' when not completable)
}

function rows(manifest: Manifest): Row[] {
  const out: Row[] = [];
  const top: Row = { path: 'docsctl', subs: [], flags: [...GLOBAL_FLAGS, '--version'], valueFlags: GLOBAL_VALUE_FLAGS, choices: {}, args: [] };
  out.push(top);
  const walk = (node: ManifestNode, parent: string) => {
    const path = `${parent} ${node.name}`;
    if (node.kind === 'group') {
      out.push({ path, subs: node.commands.map((c) => c.name), flags: ['--help'], valueFlags: GLOBAL_VALUE_FLAGS, choices: {}, args: [] });
      node.commands.forEach((c) => walk(c, path));
      return;
    }
    out.push(commandRow(path, node));
  };
  for (const e of manifest.entries) {
    if (e.hidden) continue;
    top.subs.push(e.name);
    walk(e, 'docsctl');
  }
  return out;
}

function commandRow(path: string, node: ManifestCommand): Row {
  const flags: string[] = [];
  const valueFlags = [...GLOBAL_VALUE_FLAGS];
  const choices: Record<string, string[]> = {};
  for (const f of node.flags) {
    const long = `--${kebab(f.key)}`;
    flags.push(long);
    if (f.type !== 'boolean') {
      valueFlags.push(long);
      if (f.short) valueFlags.push(`-${f.short}`);
    }
    if (f.choices) choices[long] = [...f.choices, ...(f.nullable ? ['null'] : [])];
    else if (ID_KINDS[f.value ?? '']) choices[long] = [`@${ID_KINDS[f.value ?? '']}`];
  }
  if (!node.noJson) flags.push('--json', '--fields'), valueFlags.push('--fields');
  if (node.list) flags.push('--limit', '--all', '--page'), valueFlags.push('--limit', '--page');
  if (node.destructive) flags.push('--yes');
  flags.push('--help');
  return { path, subs: [], flags, valueFlags, choices, args: node.args.map((a) => ID_KINDS[a.name] ?? '') };
}

const q = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

export function completionScript(shell: Shell, manifest: Manifest): string {
  return shell === 'fish' ? fish(manifest) : shell === 'zsh' ? zsh(manifest) : bash(manifest);
}

/**
 * The command tree as associative arrays, the same for bash and zsh, each written in its shell's
 * syntax (zsh keeps quotes inside `a['key']` as part of the key, so it gets `a=(key value …)`).
 */
function tables(manifest: Manifest, shell: 'bash' | 'zsh'): string[] {
  const t: Record<string, [string, string][]> = { subs: [], flags: [], vflags: [], choices: [], args: [] };
  for (const r of rows(manifest)) {
    if (r.subs.length) t.subs.push([r.path, r.subs.join(' ')]);
    t.flags.push([r.path, r.flags.join(' ')]);
    t.vflags.push([r.path, ' ' + r.valueFlags.join(' ') + ' ']);
    if (r.args.some(Boolean)) t.args.push([r.path, r.args.map((a) => a || '-').join(' ')]);
    for (const [flag, values] of Object.entries(r.choices)) t.choices.push([`${r.path} ${flag}`, values.join(' ')]);
  }
  const names = Object.keys(t).map((k) => `_docsctl_${k}`).join(' ');
  if (shell === 'bash') {
    return [`declare -A ${names}`, ...Object.entries(t).flatMap(([k, pairs]) => pairs.map(([key, v]) => `_docsctl_${k}[${q(key)}]=${q(v)}`))];
  }
  return [`typeset -gA ${names}`, ...Object.entries(t).map(([k, pairs]) => `_docsctl_${k}=(\n${pairs.map(([key, v]) => `  ${q(key)} ${q(v)}`).join('\n')}\n)`)];
}

/** What differs between bash and zsh in the completion function: the words, and how to answer. */
const DIALECTS = {
  bash: {
    words: 'COMP_WORDS', current: 'COMP_CWORD', first: 1, split: (x: string) => x, kindIndex: '$argi',
    // `cur` is the caller's local: bash scopes variables dynamically.
    offer: '_docsctl_offer() { COMPREPLY=($(compgen -W "$1" -- "$cur")); }',
    none: '_docsctl_none() { COMPREPLY=(); }',
  },
  zsh: {
    words: 'words', current: 'CURRENT', first: 2, split: (x: string) => `=${x}`, kindIndex: 'argi+1',
    offer: '_docsctl_offer() { compadd -- ${=1}; }',
    none: '_docsctl_none() { _default; }',
  },
} as const;

/** The completion function over the tables, in bash or zsh. */
function completer(shell: 'bash' | 'zsh'): string {
  const d = DIALECTS[shell];
  const $ = '$';
  return `${d.offer}
${d.none}
_docsctl() {
  local cur="${$}{${d.words}[${d.current}]}" prev="${$}{${d.words}[${d.current}-1]}"
  local node="docsctl" argi=0 i w
  for ((i = ${d.first}; i < ${d.current}; i++)); do
    w="${$}{${d.words}[i]}"
    if [[ "$w" == -* ]]; then
      [[ "${$}{_docsctl_vflags[$node]}" == *" $w "* ]] && ((i++))
    elif [[ " ${$}{_docsctl_subs[$node]} " == *" $w "* ]]; then
      node="$node $w"
    else
      ((argi++))
    fi
  done
  local choices="${$}{_docsctl_choices[$node $prev]}"
  if [[ -n "$choices" ]]; then
    if [[ "$choices" == @* ]]; then
      _docsctl_offer "$(docsctl __complete ids "${$}{choices#@}" 2>/dev/null)"
    else
      _docsctl_offer "$choices"
    fi
    return
  fi
  if [[ "${$}{_docsctl_vflags[$node]}" == *" $prev "* ]]; then
    _docsctl_none
    return
  fi
  if [[ "$cur" == -* ]]; then
    _docsctl_offer "${$}{_docsctl_flags[$node]}"
    return
  fi
  if [[ -n "${$}{_docsctl_subs[$node]}" ]]; then
    _docsctl_offer "${$}{_docsctl_subs[$node]}"
    return
  fi
  local kinds=(${$}{${d.split('_docsctl_args[$node]')}})
  local kind="${$}{kinds[${d.kindIndex}]}"
  if [[ -n "$kind" && "$kind" != "-" ]]; then
    _docsctl_offer "$(docsctl __complete ids "$kind" 2>/dev/null)"
  else
    _docsctl_none
  fi
}`;
}

function bash(manifest: Manifest): string {
  return [
    `# docsctl bash completion, generated from the command tree of docsctl ${manifest.version}.`,
    '# Install: docsctl completion bash > ~/.local/share/bash-completion/completions/docsctl (or source it from ~/.bashrc).',
    ...tables(manifest, 'bash'),
    completer('bash'),
    'complete -o default -F _docsctl docsctl',
  ].join('\n') + '\n';
}

/** Native zsh completion over the same tables: works from fpath (autoloaded) or sourced. */
function zsh(manifest: Manifest): string {
  return [
    '#compdef docsctl',
    `# docsctl zsh completion, generated from the command tree of docsctl ${manifest.version}.`,
    '# Install: docsctl completion zsh > "${fpath[1]}/_docsctl" (then compinit), or source it from ~/.zshrc after compinit.',
    ...tables(manifest, 'zsh'),
    completer('zsh'),
    'if [[ "${funcstack[1]}" == _docsctl ]]; then',
    '  _docsctl "$@"',
    'else',
    '  compdef _docsctl docsctl',
    'fi',
  ].join('\n') + '\n';
}

function fish(manifest: Manifest): string {
  const table = rows(manifest);
  const lines = [
    `# docsctl fish completion, generated from the command tree of docsctl ${manifest.version}.`,
    '# Install: docsctl completion fish > ~/.config/fish/completions/docsctl.fish',
    'function __docsctl_node --description "the docsctl command path typed so far"',
    '    set -l words (commandline -opc)',
    '    set -e words[1]',
    '    set -l node "docsctl"',
    '    set -l skip 0',
    '    for w in $words',
    '        if test $skip -eq 1; set skip 0; continue; end',
    '        switch $w',
    '            case "--profile" "--org" "--timeout"',
    '                set skip 1',
    '            case "-*"',
    '            case "*"',
    '                if contains -- $w (__docsctl_subs "$node")',
    '                    set node "$node $w"',
    '                end',
    '        end',
    '    end',
    '    echo $node',
    'end',
    'function __docsctl_subs',
    '    switch "$argv[1]"',
  ];
  for (const r of table) if (r.subs.length) lines.push(`        case ${q(r.path)}`, `            printf '%s\\n' ${r.subs.map(q).join(' ')}`);
  lines.push('    end', 'end', 'function __docsctl_at', '    test (__docsctl_node) = "$argv[1]"', 'end', 'complete -c docsctl -f');
  for (const r of table) {
    const cond = `'__docsctl_at ${q(r.path).replace(/'/g, '"')}'`;
    if (r.subs.length) lines.push(`complete -c docsctl -n ${cond} -a ${q(r.subs.join(' '))}`);
    for (const f of r.flags) {
      const values = r.choices[f];
      const takes = r.valueFlags.includes(f);
      const arg = values ? (values[0].startsWith('@') ? ` -x -a '(docsctl __complete ids ${values[0].slice(1)} 2>/dev/null)'` : ` -x -a ${q(values.join(' '))}`) : takes ? ' -r' : '';
      lines.push(`complete -c docsctl -n ${cond} -l ${f.slice(2)}${arg}`);
    }
    const kind = r.args.find(Boolean);
    if (kind) lines.push(`complete -c docsctl -n ${cond} -a '(docsctl __complete ids ${kind} 2>/dev/null)'`);
  }
  return lines.join('\n') + '\n';
}
