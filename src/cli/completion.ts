/**
 * Shell completion scripts generated from the command manifest. Commands and their aliases,
 * subcommands, flags (the command's, the shared ones and the global ones, cli/flags.ts), enum
 * values of flags and arguments are written into the script; ids (spaces, collections, sites,
 * change requests, members, organizations, profiles) are listed at TAB time by
 * `docsctl __complete ids KIND`, which answers from a short cache or within ~300 ms, never blocking
 * the shell for long. Its lines are `id<TAB>title`: zsh and fish show the title beside the id, bash
 * (which has no descriptions) the id alone. `--org` and `--profile` typed on the line are passed on,
 * and so is the space typed as an argument where change request numbers are completed (they are
 * numbered per space). Files are offered only for values that are files (ManifestFlag.files,
 * ManifestArg.files); any other value (an id docsctl cannot list, a title) completes to nothing.
 */
import { kebab } from './spec.js';
import { GLOBAL_FLAGS, GLOBAL_VALUE_FLAGS, sharedFlags, VERSION_FLAG, type IdKind } from './flags.js';
import type { Manifest, ManifestCommand, ManifestNode } from './manifest.js';

export const SHELLS = ['bash', 'zsh', 'fish'] as const;
export type Shell = (typeof SHELLS)[number];

/**
 * What a value completes to: ids of a kind (change requests: of the space given as the argument
 * numbered `space`), fixed words, or files; nothing else.
 */
type Values = { ids: IdKind; space?: number } | { words: string[] } | { files: true };

/** One node of the tree as completion sees it ('docsctl spaces list'). */
interface Row {
  path: string;
  /** Subcommands offered, with their summaries. */
  subs: { name: string; summary: string }[];
  /** Alias → the subcommand's name. */
  aliases: Record<string, string>;
  /** Flags offered here (the global ones are added by every shell), with their descriptions. */
  flags: { name: string; description: string }[];
  /** Flags here that take a value, long and short (the global ones included). */
  valueFlags: string[];
  /** Values of a flag (`--visibility`) or of the Nth argument (`#2`). */
  values: Record<string, Values>;
}

/** Global flags with values to complete, whatever the command (`--org <TAB>`). */
const GLOBAL_VALUES: Record<string, Values> = Object.fromEntries(GLOBAL_FLAGS.filter((f) => f.ids).map((f) => [f.long, { ids: f.ids! }]));
/** Global flags that say where ids come from: passed on to `__complete ids`. */
const CONTEXT_FLAGS = GLOBAL_FLAGS.filter((f) => f.context).map((f) => f.long);

const oneLine = (s: string) => s.split('\n')[0].replace(/\s+/g, ' ').trim();

function rows(manifest: Manifest): Row[] {
  const out: Row[] = [];
  const group = (path: string, children: readonly (ManifestNode & { hidden?: boolean })[]): Row => {
    const visible = children.filter((c) => !c.hidden);
    return {
      path,
      subs: visible.map((c) => ({ name: c.name, summary: oneLine(c.summary) })),
      aliases: Object.fromEntries(visible.flatMap((c) => (c.aliases ?? []).map((a) => [a, c.name]))),
      flags: [],
      valueFlags: [...GLOBAL_VALUE_FLAGS],
      values: {},
    };
  };
  const top = group('docsctl', manifest.entries);
  top.subs.push({ name: 'help', summary: 'Show the help of a command' });
  top.flags.push({ name: VERSION_FLAG.long, description: VERSION_FLAG.description });
  out.push(top);
  const walk = (node: ManifestNode, parent: string) => {
    const path = `${parent} ${node.name}`;
    if (node.kind === 'group') {
      out.push(group(path, node.commands));
      node.commands.forEach((c) => walk(c, path));
    } else {
      out.push(commandRow(path, node));
    }
  };
  for (const e of manifest.entries) if (!e.hidden) walk(e, 'docsctl');
  return out;
}

function commandRow(path: string, node: ManifestCommand): Row {
  const row: Row = { path, subs: [], aliases: {}, flags: [], valueFlags: [...GLOBAL_VALUE_FLAGS], values: {} };
  // Change requests are numbered per space: their numbers come from the space typed as an argument.
  const spaceArg = node.args.findIndex((a) => a.name === 'space');
  const ids = (kind: IdKind): Values => ((kind === 'cr' || kind === 'mergeable-cr') && spaceArg >= 0 ? { ids: kind, space: spaceArg + 1 } : { ids: kind });
  for (const f of node.flags) {
    const long = `--${kebab(f.key)}`;
    if (!f.hidden) row.flags.push({ name: long, description: oneLine(f.description) });
    if (f.type === 'boolean') continue;
    row.valueFlags.push(long, ...(f.short ? [`-${f.short}`] : []));
    const values: Values | undefined = f.choices
      ? { words: [...f.choices, ...(f.nullable ? ['null'] : [])] }
      : f.ids
        ? ids(f.ids)
        : f.files
          ? { files: true }
          : undefined;
    if (values) for (const name of [long, ...(f.short ? [`-${f.short}`] : [])]) row.values[name] = values;
  }
  for (const { flag } of sharedFlags(node)) {
    row.flags.push({ name: flag.long, description: flag.description });
    if (flag.value) row.valueFlags.push(flag.long, ...(flag.short ? [`-${flag.short}`] : []));
  }
  node.args.forEach((a, i) => {
    if (a.choices) row.values[`#${i + 1}`] = { words: a.choices };
    else if (a.ids) row.values[`#${i + 1}`] = ids(a.ids);
    else if (a.files) row.values[`#${i + 1}`] = { files: true };
  });
  return row;
}

const globalFlags = () => GLOBAL_FLAGS.map((f) => ({ name: f.long, description: f.description }));
/** A value's completion as the scripts' tables hold it: `@kind`, `@kind@N` (the space is argument N), `@files`, or the words. */
const spec = (v: Values) => ('ids' in v ? `@${v.ids}${v.space ? `@${v.space}` : ''}` : 'files' in v ? '@files' : v.words.join(' '));
const q = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

export function completionScript(shell: Shell, manifest: Manifest): string {
  return shell === 'fish' ? fish(manifest) : shell === 'zsh' ? zsh(manifest) : bash(manifest);
}

/**
 * The command tree as associative arrays, the same for bash and zsh, each written in its shell's
 * syntax (zsh keeps quotes inside `a['key']` as part of the key, so it gets `a=(key value …)`).
 */
function tables(manifest: Manifest, shell: 'bash' | 'zsh'): string[] {
  const t: Record<string, [string, string][]> = { subs: [], aliases: [], alias: [], flags: [], vflags: [], values: [] };
  for (const r of rows(manifest)) {
    if (r.subs.length) t.subs.push([r.path, r.subs.map((s) => s.name).join(' ')]);
    if (Object.keys(r.aliases).length) t.aliases.push([r.path, Object.keys(r.aliases).join(' ')]);
    for (const [alias, name] of Object.entries(r.aliases)) t.alias.push([`${r.path} ${alias}`, name]);
    t.flags.push([r.path, [...r.flags, ...globalFlags()].map((f) => f.name).join(' ')]);
    t.vflags.push([r.path, ' ' + r.valueFlags.join(' ') + ' ']);
    for (const [key, v] of Object.entries(r.values)) t.values.push([`${r.path} ${key}`, spec(v)]);
  }
  for (const [flag, v] of Object.entries(GLOBAL_VALUES)) t.values.push([flag, spec(v)]);
  const names = Object.keys(t)
    .map((k) => `_docsctl_${k}`)
    .join(' ');
  if (shell === 'bash') {
    return [`declare -A ${names}`, ...Object.entries(t).flatMap(([k, pairs]) => pairs.map(([key, v]) => `_docsctl_${k}[${q(key)}]=${q(v)}`))];
  }
  return [`typeset -gA ${names}`, ...Object.entries(t).map(([k, pairs]) => `_docsctl_${k}=(\n${pairs.map(([key, v]) => `  ${q(key)} ${q(v)}`).join('\n')}\n)`)];
}

/** What differs between bash and zsh in the completion function: the words, and how to answer. */
const DIALECTS = {
  bash: {
    words: 'COMP_WORDS',
    current: 'COMP_CWORD',
    first: 1,
    // `cur`, `ctx` and `pos` are the caller's locals: bash scopes variables dynamically. Fails when nothing matches.
    offer: '_docsctl_offer() { COMPREPLY=($(compgen -W "$1" -- "$cur")); ((${#COMPREPLY[@]})); }',
    none: '_docsctl_none() { COMPREPLY=(); }',
    files: '_docsctl_files() { compopt -o filenames 2>/dev/null; COMPREPLY=($(compgen -f -- "$cur")); }',
    // bash shows no descriptions: the id alone. `kind@N`: change requests of the space typed as argument N.
    ids: `_docsctl_ids() {
  local id rest kind="\${1%%@*}" words=()
  local -a where=()
  [[ "$1" == *@* ]] && where=(--space "\${pos[\${1#*@}]}")
  while IFS=$'\\t' read -r id rest; do [[ -n "$id" ]] && words+=("$id"); done < <(docsctl __complete ids "$kind" "\${where[@]}" "\${ctx[@]}" 2>/dev/null)
  COMPREPLY=($(compgen -W "\${words[*]}" -- "$cur"))
}`,
  },
  zsh: {
    words: 'words',
    current: 'CURRENT',
    first: 2,
    offer: '_docsctl_offer() { compadd -- ${=1}; }',
    none: '_docsctl_none() { return 1; }',
    files: '_docsctl_files() { _files; }',
    // Each id shown with its title: `sp-welcome  -- Welcome`. `kind@N`: change requests of the space typed as argument N.
    ids: `_docsctl_ids() {
  local line kind="\${1%%@*}"
  local -a ids shown where
  [[ "$1" == *@* ]] && where=(--space "\${pos[\${1#*@}]}")
  for line in "\${(@f)$(docsctl __complete ids "$kind" "\${where[@]}" "\${ctx[@]}" 2>/dev/null)}"; do
    [[ -z "$line" ]] && continue
    ids+=("\${line%%$'\\t'*}")
    if [[ "$line" == *$'\\t'* ]]; then shown+=("\${line%%$'\\t'*}  -- \${line#*$'\\t'}"); else shown+=("$line"); fi
  done
  (( \${#ids} )) && compadd -l -d shown -- "\${ids[@]}"
}`,
  },
} as const;

/** The completion function over the tables, in bash or zsh. */
function completer(shell: 'bash' | 'zsh'): string {
  const d = DIALECTS[shell];
  const W = d.words;
  const C = d.current;
  return `${d.offer}
${d.none}
${d.files}
${d.ids}
_docsctl_values() {
  if [[ "$1" == @files ]]; then
    _docsctl_files
  elif [[ "$1" == @* ]]; then
    _docsctl_ids "\${1#@}"
  elif [[ -n "$1" ]]; then
    _docsctl_offer "$1"
  else
    _docsctl_none
  fi
}
_docsctl() {
  local cur="\${${W}[${C}]}" prev="\${${W}[${C}-1]}"
  local node="docsctl" argi=0 i w
  local -a ctx=() pos=()
  for ((i = ${d.first}; i < ${C}; i++)); do
    w="\${${W}[i]}"
    if [[ "$w" == -* ]]; then
      if [[ "\${_docsctl_vflags[$node]}" == *" $w "* ]]; then
        [[ ${CONTEXT_FLAGS.map((f) => `"$w" == ${f}`).join(' || ')} ]] && ((i + 1 < ${C})) && ctx+=("$w" "\${${W}[i+1]}")
        ((i++))
      fi
    elif [[ "$node" == docsctl && "$w" == help ]]; then
      :
    elif [[ " \${_docsctl_subs[$node]} " == *" $w "* ]]; then
      node="$node $w"
    elif [[ -n "\${_docsctl_alias[$node $w]}" ]]; then
      node="$node \${_docsctl_alias[$node $w]}"
    else
      ((argi++))
      pos[argi]="$w"
    fi
  done
  if [[ "\${_docsctl_vflags[$node]}" == *" $prev "* ]]; then
    local v="\${_docsctl_values[$node $prev]}"
    [[ -z "$v" ]] && v="\${_docsctl_values[$prev]}"
    _docsctl_values "$v"
    return
  fi
  if [[ "$cur" == -* ]]; then
    _docsctl_offer "\${_docsctl_flags[$node]}"
    return
  fi
  if [[ -n "\${_docsctl_subs[$node]}" ]]; then
    # Names first; an alias only when no name fits what is typed.
    _docsctl_offer "\${_docsctl_subs[$node]}" || _docsctl_offer "\${_docsctl_aliases[$node]}"
    return
  fi
  _docsctl_values "\${_docsctl_values[$node #$((argi + 1))]}"
}`;
}

function bash(manifest: Manifest): string {
  return (
    [
      `# docsctl bash completion, generated from the command tree of docsctl ${manifest.version}.`,
      '# Install: docsctl completion bash > ~/.local/share/bash-completion/completions/docsctl (or source it from ~/.bashrc).',
      ...tables(manifest, 'bash'),
      completer('bash'),
      'complete -F _docsctl docsctl',
    ].join('\n') + '\n'
  );
}

/** Native zsh completion over the same tables: works from fpath (autoloaded) or sourced. */
function zsh(manifest: Manifest): string {
  return (
    [
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
    ].join('\n') + '\n'
  );
}

/**
 * fish: one function computes the candidates of the line (as `value<TAB>description` lines, which
 * fish filters and shows), over tables written as `switch` functions. Keys never start with a dash
 * (fish's `case` would read one as its own option): a global flag's values are under `global --org`.
 */
function fish(manifest: Manifest): string {
  const table = rows(manifest);
  const tsv = (name: string, description: string) => q(description ? `${name}\t${description}` : name);
  const switchFn = (name: string, doc: string, cases: [string, string[]][]) => [
    `function ${name} --description ${q(doc)}`,
    '    switch $argv[1]',
    ...cases.filter(([, lines]) => lines.length).flatMap(([key, lines]) => [`        case ${q(key)}`, `            printf '%s\\n' ${lines.join(' ')}`]),
    '    end',
    'end',
  ];
  const lines = [
    `# docsctl fish completion, generated from the command tree of docsctl ${manifest.version}.`,
    '# Install: docsctl completion fish > ~/.config/fish/completions/docsctl.fish',
    ...switchFn(
      '__docsctl_subs',
      'subcommands of a node, with their summaries',
      table.map((r) => [r.path, r.subs.map((s) => tsv(s.name, s.summary))]),
    ),
    ...switchFn(
      '__docsctl_aliases',
      'aliases of the subcommands of a node',
      table.map((r) => [r.path, Object.keys(r.aliases).map(q)]),
    ),
    ...switchFn(
      '__docsctl_alias',
      'the subcommand an alias names ("node alias")',
      table.flatMap((r) => Object.entries(r.aliases).map(([a, n]): [string, string[]] => [`${r.path} ${a}`, [q(n)]])),
    ),
    ...switchFn(
      '__docsctl_flags',
      'flags of a node, with their descriptions',
      table.map((r) => [r.path, [...r.flags, ...globalFlags()].map((f) => tsv(f.name, f.description))]),
    ),
    ...switchFn(
      '__docsctl_vflags',
      'flags of a node that take a value',
      table.map((r) => [r.path, r.valueFlags.map(q)]),
    ),
    ...switchFn('__docsctl_values', 'values of a flag ("node --flag") or an argument ("node #N"): @kind (@kind@N) for ids, @files for files', [
      ...table.flatMap((r) => Object.entries(r.values).map(([k, v]): [string, string[]] => [`${r.path} ${k}`, 'words' in v ? v.words.map(q) : [q(spec(v))]])),
      ...Object.entries(GLOBAL_VALUES).map(([flag, v]): [string, string[]] => [`global ${flag}`, [q(spec(v))]]),
    ]),
    'function __docsctl_complete --description "the candidates for the token at the cursor"',
    '    set -l words (commandline -opc)',
    '    set -e words[1]',
    '    set -l cur (commandline -ct)',
    '    set -l node docsctl',
    '    set -l argi 0',
    '    set -l pos',
    '    set -l ctx',
    '    set -l flag',
    '    for w in $words',
    '        if test -n "$flag"',
    `            contains -- $flag ${CONTEXT_FLAGS.join(' ')}; and set ctx $ctx $flag $w`,
    '            set flag',
    '        else if string match -q -- "-*" $w',
    '            contains -- $w (__docsctl_vflags $node); and set flag $w',
    '        else if test "$node" = docsctl -a "$w" = help',
    '        else if contains -- $w (__docsctl_subs $node | string replace -r "\\t.*" "")',
    '            set node "$node $w"',
    '        else',
    '            set -l name (__docsctl_alias "$node $w")',
    '            if test -n "$name"',
    '                set node "$node $name"',
    '            else',
    '                set argi (math $argi + 1)',
    '                set pos $pos $w',
    '            end',
    '        end',
    '    end',
    '    set -l values',
    '    set -l subs (__docsctl_subs $node)',
    '    if test -n "$flag"',
    '        set values (__docsctl_values "$node $flag")',
    '        test -n "$values"; or set values (__docsctl_values "global $flag")',
    '    else if string match -q -- "-*" $cur',
    '        __docsctl_flags $node',
    '        return',
    '    else if test (count $subs) -gt 0',
    '        # Names first; an alias only when no name fits what is typed.',
    '        if string match -q -- "$cur*" (string replace -r "\\t.*" "" -- $subs)',
    '            printf "%s\\n" $subs',
    '        else',
    '            __docsctl_aliases $node',
    '        end',
    '        return',
    '    else',
    '        set values (__docsctl_values "$node #"(math $argi + 1))',
    '    end',
    '    if test -z "$values"',
    '        return',
    '    else if test "$values[1]" = @files',
    '        __fish_complete_path $cur',
    '    else if string match -q -- "@*" $values[1]',
    '        # kind, or kind@N: change requests of the space typed as argument N',
    '        set -l spec (string split @ -- (string sub -s 2 -- $values[1]))',
    '        set -l where',
    '        if set -q spec[2]; and set -q pos[$spec[2]]',
    '            set where --space $pos[$spec[2]]',
    '        else if set -q spec[2]',
    '            return',
    '        end',
    '        docsctl __complete ids $spec[1] $where $ctx 2>/dev/null',
    '    else',
    '        printf "%s\\n" $values',
    '    end',
    'end',
    'complete -c docsctl -f -a "(__docsctl_complete)"',
  ];
  return lines.join('\n') + '\n';
}
