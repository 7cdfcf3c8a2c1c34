/**
 * Reading organization files: YAML or JSON, `${env:NAME}` values, certificates from files, the
 * schema (item by item), what each file owns, then the rules the schema cannot say, across the files
 * merged kind by kind (keys unique within their kind, references to keys that exist, no cycle of
 * collections, one default per list, unique paths). Every problem is given with its place,
 * `org.yaml:12:7: spaces[3].parent: no collection "guidez"`, all of them at once, in one pass,
 * before anything is sent; `orgs validate` runs the same pass without a network.
 */
import type { z } from 'zod';
import { isMap, isPair, isScalar, isSeq, LineCounter, parseDocument, visit, type Document, type Node } from 'yaml';
import { describeIssue } from '../contract/issues.js';
import type { Role } from '../contract/op.js';
import { checkCertificate } from '../cli/certificate.js';
import { certificateLabel } from './certificate.js';
import { KeyAllocator, slug } from './keys.js';
import { bytesText } from '../cli/read.js';
import { FILE_BYTES_VARIABLE, ORG_FILE_LIMITS } from './limits.js';
import { readCertificateFile, ReadRefused } from './read.js';
import { readOrgFiles, type OrgFileText } from './files.js';
import type { Owner } from './owns.js';
import type { DCollection, Desired, DGroup, DMember, DNode, DSaml, DSection, DSite, DSiteSpace, DSpace, DSpec, DStructure, Path } from './model.js';
import { walkDesired } from './model.js';
import { movedNotes } from './moved.js';
import { checkAccess, checkTeamRef, checkTeams, grantsOf, normalizeSettings, normalizeTeams, type AccessKeys } from './access-source.js';
import {
  FILE_VERSION,
  isSecretField,
  ITEM_SCHEMAS,
  KINDS,
  OrgFileTop,
  type FileGroup,
  type FileOwnsT,
  type FileSettingsT,
  FileSettings,
  type FileSection,
  type FileSiteSpaceT,
  type Kind,
  type OrgFileData,
} from './schema.js';
import { plural } from '../cli/text.js';

export interface Problem {
  /** `file:line:column`. */
  where: string;
  /** `sites[0].sections[1].title`. */
  path: string;
  message: string;
}

/** A file that cannot be used, with every problem found (exit 2: nothing was sent). */
export class OrgFileError extends Error {
  override name = 'OrgFileError';
  constructor(
    readonly source: string,
    readonly problems: Problem[],
  ) {
    super(formatProblems(source, problems));
  }
}

const MAX_SHOWN = 20;

/** `org.yaml: 3 problems` and one line each (at most MAX_SHOWN). */
export function formatProblems(source: string, problems: Problem[]): string {
  const head = `${source}: ${plural(problems.length, 'problem')}`;
  const lines = problems.slice(0, MAX_SHOWN).map((p) => `  ${p.where}: ${p.path ? `${p.path}: ` : ''}${p.message}`);
  if (problems.length > MAX_SHOWN) lines.push(`  … and ${problems.length - MAX_SHOWN} more`);
  return [head, ...lines].join('\n');
}

/** `['sites', 0, 'sections', 1]` → `sites[0].sections[1]`. */
export function pathText(path: Path): string {
  return path.map((p, i) => (typeof p === 'number' ? `[${p}]` : i === 0 ? p : `.${p}`)).join('');
}

export interface LoadOptions {
  /** The environment `${env:NAME}` reads (default: none). */
  env?: NodeJS.ProcessEnv;
  /** The folder certificate files are relative to, and must be in (default: the file's). */
  baseDir?: string;
  /** The largest file taken, and the largest total of several, in bytes (default: ORG_FILE_LIMITS.fileBytes). */
  maxBytes?: number;
  /**
   * An unset `${env:NAME}`: a problem (plan and apply need its value; the default), or a note
   * (`orgs validate`: the value is not needed to check the file, and the certificate is not checked),
   * or an unknown value (`orgs plan` and `apply -f`: the field is "unknown, unchanged"; apply refuses
   * when it would send it).
   */
  unsetEnv?: 'problem' | 'note' | 'unknown';
}

/** What checking files found: the organization they describe (when there is no problem), the problems, the notes. */
export interface Checked {
  desired?: Desired;
  problems: Problem[];
  notes: Problem[];
  /** The files read, in order. */
  files: string[];
}

/** How to raise the size bound, for its message. */
const RAISE_SIZE = `${FILE_BYTES_VARIABLE} raises it`;

/** The source named in messages about several files. */
function sourcesText(files: string[]): string {
  return files.length === 1 ? files[0] : files.length <= 3 ? files.join(', ') : `${files.length} files`;
}

/**
 * Read and check the files (and folders) `-f` gives, every problem of every file at once. Never
 * throws for a problem of the files: see `problems` (a file that cannot be read is one too).
 */
export function checkOrgFilePaths(given: string[], opts: LoadOptions = {}): Checked {
  const problems: Problem[] = [];
  const maxBytes = opts.maxBytes ?? ORG_FILE_LIMITS.fileBytes;
  const texts = readOrgFiles(given, maxBytes, RAISE_SIZE, (path, e) => problems.push({ where: path, path: '', message: e.message }));
  const checked = checkOrgFiles(texts, opts);
  return { ...checked, problems: [...problems, ...checked.problems], desired: problems.length ? undefined : checked.desired };
}

/** Read and check the files (and folders) given; throws OrgFileError with every problem. */
export function loadOrgFiles(given: string[], opts: LoadOptions = {}): Desired {
  const checked = checkOrgFilePaths(given, opts);
  if (!checked.desired) throw new OrgFileError(sourcesText(given), checked.problems);
  return checked.desired;
}

/** Check a file's text (YAML, or JSON, which YAML reads too). Throws OrgFileError. */
export function parseOrgFile(text: string, source: string, opts: LoadOptions = {}): Desired {
  const checked = checkOrgFiles([{ text, source, baseDir: opts.baseDir ?? process.cwd() }], opts);
  if (!checked.desired) throw new OrgFileError(source, checked.problems);
  return checked.desired;
}

/** One file, checked on its own: what it declares, its items that passed the schema, where things are in it. */
interface FileState {
  source: string;
  baseDir: string;
  /** `file:line:column` of a path of this file (of the key `keyName` in the map there). */
  where: (path: Path, keyName?: string) => string;
  organization?: string;
  /** The organization's settings it manages (`organization: {…}`). */
  settings?: FileSettingsT;
  owns?: FileOwnsT;
  /** Its `moved:` notes (merged across files: a rename is one organization's). */
  moved?: OrgFileData['moved'];
  /** Kinds whose list is a list. */
  declared: Set<Kind>;
  /** The items that passed the schema, with their index in the file. */
  items: Record<Kind, { value: unknown; index: number }[]>;
  /** Keys of items left out for their problems: references to them are not reported again. */
  known: Record<Kind, string[]>;
  /** The variable each substituted field came from, by path text. */
  fromEnv: Map<string, string>;
  /** Fields whose `${env:}` gave no value (by path text): not checked further. */
  unresolved: Set<string>;
}

const byKind = <T>(make: () => T): Record<Kind, T> => Object.fromEntries(KINDS.map((k) => [k, make()])) as Record<Kind, T>;

/**
 * Check files' texts as one organization: each file (syntax, `${env:}`, the schema item by item, what
 * it owns), then the items of all of them merged kind by kind (keys unique across files, references,
 * cycles, values). Every problem at once, each at its file:line:column.
 */
export function checkOrgFiles(files: OrgFileText[], opts: LoadOptions = {}): Checked {
  const problems: Problem[] = [];
  const notes: Problem[] = [];
  const states: FileState[] = [];
  for (const f of files) {
    const state = checkOne(f, opts, problems, notes);
    if (state) states.push(state);
  }
  const names = files.map((f) => f.source);
  if (states.length === 0) return { problems: inFileOrder(problems, names), notes: inFileOrder(notes, names), files: names };

  // Items of one kind merged across files; each remembers its file and its index there.
  const origin = byKind<{ file: FileState; index: number }[]>(() => []);
  const merged: Record<string, unknown> = { version: FILE_VERSION };
  const kinds = new Set<Kind>();
  for (const k of KINDS) {
    const holders = states.filter((s) => s.declared.has(k));
    if (holders.length === 0) continue;
    kinds.add(k);
    merged[k] = holders.flatMap((s) =>
      s.items[k].map((it) => {
        origin[k].push({ file: s, index: it.index });
        return it.value;
      }),
    );
  }
  const moved = states.flatMap((s) => s.moved ?? []);
  if (moved.length) merged.moved = moved;
  const first = states[0];
  const locate = (path: Path): { file: FileState; local: Path } => {
    const [kind, index, ...rest] = path;
    if (typeof index === 'number' && (KINDS as readonly unknown[]).includes(kind)) {
      const o = origin[kind as Kind][index];
      if (o) return { file: o.file, local: [kind, o.index, ...rest] };
    }
    if (kind === 'organization') return { file: states.find((s) => s.settings !== undefined) ?? first, local: path };
    return { file: first, local: path };
  };
  const where = (path: Path, keyName?: string) => {
    const { file, local } = locate(path);
    return file.where(local, keyName);
  };
  const report = (path: Path, message: string, keyName?: string) => problems.push({ where: where(path, keyName), path: pathText(locate(path).local), message });

  // The organization the files name (informative) must be one.
  let organization: string | undefined;
  let organizationFrom: FileState | undefined;
  for (const s of states) {
    if (s.organization === undefined) continue;
    if (organizationFrom === undefined) {
      organization = s.organization;
      organizationFrom = s;
    } else if (s.organization !== organization) {
      problems.push({
        where: s.where(['organization']),
        path: 'organization',
        message: `${JSON.stringify(s.organization)}: ${organizationFrom.source} names organization ${JSON.stringify(organization)} (files given together describe one organization)`,
      });
    }
  }

  // The organization's settings: from one file only.
  const settingsFrom = states.filter((s) => s.settings !== undefined);
  for (const s of settingsFrom.slice(1))
    problems.push({
      where: s.where(['organization']),
      path: 'organization',
      message: `${settingsFrom[0].source} has the organization's settings too (one file manages them)`,
    });
  if (settingsFrom.length) merged.organization = settingsFrom[0].settings;

  const known = byKind<Set<string>>(() => new Set());
  for (const s of states) for (const k of KINDS) for (const key of s.known[k]) known[k].add(key);
  const data = merged as OrgFileData;
  const desired = normalize(data, kinds, {
    where,
    report,
    place: (path) => `${pathText(locate(path).local)} (${where(path)})`,
    baseDirOf: (path) => locate(path).file.baseDir,
    envOf: (path) => {
      const { file, local } = locate(path);
      return file.fromEnv.get(pathText(local));
    },
    unresolved: (path) => {
      const { file, local } = locate(path);
      return file.unresolved.has(pathText(local));
    },
    known,
  });
  desired.source = sourcesText(names);
  desired.pathIn = (path) => pathText(locate(path).local);
  if (organization !== undefined) desired.organization = organization;
  desired.owners = states.map((s) => ownerOf(s));
  return { ...(problems.length ? {} : { desired }), problems: inFileOrder(problems, names), notes: inFileOrder(notes, names), files: names };
}

/** Problems in the order of the files, then of their lines and columns (as an editor lists them). */
function inFileOrder(problems: Problem[], files: string[]): Problem[] {
  const keyOf = (p: Problem): [number, number, number] => {
    const m = /^(.*):(\d+):(\d+)$/.exec(p.where);
    const file = m ? m[1] : p.where;
    return [files.indexOf(file), m ? Number(m[2]) : 0, m ? Number(m[3]) : 0];
  };
  const keyed = problems.map((p) => ({ p, k: keyOf(p) }));
  keyed.sort((a, b) => a.k[0] - b.k[0] || a.k[1] - b.k[1] || a.k[2] - b.k[2]);
  return keyed.map((x) => x.p);
}

/** What a file owns: every item of the kinds it declares, or what its `owns:` lists. */
function ownerOf(s: FileState): Owner {
  const declares = new Set(s.declared);
  if (!s.owns) return { source: s.source, declares, whole: new Set(declares), collections: [], sites: [] };
  return {
    source: s.source,
    declares,
    whole: new Set((s.owns.kinds ?? []).filter((k) => declares.has(k))),
    collections: s.owns.collections ?? [],
    sites: s.owns.sites ?? [],
  };
}

/** The item kinds' names for a key derived from a title, as normalize derives them. */
const TITLE_OF: Record<Kind, (v: Record<string, unknown>) => unknown> = {
  collections: (v) => v.title,
  spaces: (v) => v.title,
  sites: (v) => v.title,
  teams: (v) => v.title,
  members: (v) => v.name ?? v.id,
  saml: (v) => v.label,
  openapi: (v) => v.slug,
};

/** One file on its own: its problems pushed to `problems`; undefined when nothing of it can be used. */
function checkOne(f: OrgFileText, opts: LoadOptions, problems: Problem[], notes: Problem[]): FileState | undefined {
  const { source, text } = f;
  const maxBytes = opts.maxBytes ?? ORG_FILE_LIMITS.fileBytes;
  const size = Buffer.byteLength(text);
  if (size > maxBytes) {
    problems.push({
      where: source,
      path: '',
      message: `${plural(size, 'byte')}: larger than ${bytesText(maxBytes)}, the limit of an organization file (${RAISE_SIZE})`,
    });
    return undefined;
  }
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines, prettyErrors: false, uniqueKeys: true, strict: true });
  const at = (offset: number) => {
    const { line, col } = lines.linePos(offset);
    return `${source}:${line}:${col}`;
  };
  const syntax = [...doc.errors].map((e): Problem => ({ where: at(e.pos[0]), path: '', message: e.message.replace(/ at line \d+, column \d+:?[\s\S]*$/, '') }));
  if (syntax.length) {
    problems.push(...syntax);
    return undefined;
  }

  const where = (path: Path, keyName?: string) => at(nodeOffset(doc, path, keyName));
  const report = (path: Path, message: string, keyName?: string) => problems.push({ where: where(path, keyName), path: pathText(path), message });

  const unresolved = new Set<string>();
  const fromEnv = substituteEnv(
    doc,
    opts.env ?? {},
    (node, path, message) => {
      unresolved.add(pathText(path));
      problems.push({ where: at(node.range?.[0] ?? 0), path: pathText(path), message });
    },
    (node, path, name) => {
      unresolved.add(pathText(path));
      const p = { where: at(node.range?.[0] ?? 0), path: pathText(path) };
      if (opts.unsetEnv === 'unknown') return;
      if (opts.unsetEnv === 'note')
        notes.push({
          ...p,
          message: `\${env:${name}}: the environment variable ${name} is not set here (plan shows the certificate as unknown, unchanged; apply needs it to send it; the certificate is not checked)`,
        });
      else problems.push({ ...p, message: `\${env:${name}}: the environment variable ${name} is not set` });
    },
  );

  let raw: unknown;
  try {
    raw = doc.toJS({ maxAliasCount: ORG_FILE_LIMITS.aliasCount });
  } catch (e) {
    if (!(e instanceof ReferenceError)) throw e;
    problems.push(aliasProblem(doc, e, at));
    return undefined;
  }
  if (raw === null || raw === undefined) {
    problems.push({ where: at(0), path: '', message: 'the file is empty: it needs at least version: 1' });
    return undefined;
  }
  const schemaIssue = (issue: z.core.$ZodIssue, prefix: Path, input: unknown) => {
    const path = [...prefix, ...(issue.path as Path)];
    if (issue.code === 'unrecognized_keys') {
      for (const k of issue.keys) report([...path, k], `unknown field ${JSON.stringify(k)}${suggestField(k)}`, k);
    } else {
      report(path, describeIssue(issue, input));
    }
  };
  const top = OrgFileTop.safeParse(raw);
  const state: FileState = {
    source,
    baseDir: f.baseDir,
    where,
    declared: new Set(),
    items: byKind(() => []),
    known: byKind(() => []),
    fromEnv,
    unresolved,
  };
  const rawTop = (typeof raw === 'object' && !Array.isArray(raw) ? raw : {}) as Record<string, unknown>;
  if (!top.success) {
    for (const issue of top.error.issues) schemaIssue(issue, [], raw);
    if (typeof raw !== 'object' || Array.isArray(raw)) return undefined;
  } else {
    const org = top.data.organization;
    if (typeof org === 'string') state.organization = org;
    else if (org !== undefined) {
      // The settings: checked on their own, so that their problems are named field by field.
      const settings = FileSettings.safeParse(org);
      if (settings.success) {
        state.settings = settings.data;
        if (settings.data.id !== undefined) state.organization = settings.data.id;
      } else for (const issue of settings.error.issues) schemaIssue(issue, ['organization'], org);
    }
    if (top.data.owns !== undefined) state.owns = top.data.owns;
    if (top.data.moved !== undefined) state.moved = top.data.moved;
  }
  // The lists, item by item: a bad item is reported and left out, the others are checked on.
  for (const k of KINDS) {
    const list = rawTop[k];
    if (!Array.isArray(list)) continue;
    state.declared.add(k);
    list.forEach((item, index) => {
      const parsed = ITEM_SCHEMAS[k].safeParse(item);
      if (parsed.success) {
        state.items[k].push({ value: parsed.data, index });
        return;
      }
      for (const issue of parsed.error.issues) schemaIssue(issue, [k, index], item);
      if (typeof item === 'object' && item !== null) {
        const v = item as Record<string, unknown>;
        const title = TITLE_OF[k](v);
        if (typeof v.key === 'string') state.known[k].push(v.key);
        else if (typeof title === 'string') state.known[k].push(slug(title, ''));
      }
    });
  }
  // What it owns must be of what it declares.
  const owns = state.owns;
  if (owns) {
    (owns.kinds ?? []).forEach((k, i) => {
      if (!state.declared.has(k))
        report(['owns', 'kinds', i], `${k}: the file has no ${k}: list (a file owns only kinds it declares; ${k}: [] owns them all and keeps none)`);
    });
    if (owns.collections?.length && !state.declared.has('collections') && !state.declared.has('spaces'))
      report(
        ['owns', 'collections'],
        'the file has neither collections: nor spaces: (owning a collection subtree is owning the collections and spaces the file declares in it)',
      );
    if (owns.sites?.length && !state.declared.has('sites'))
      report(['owns', 'sites'], 'the file has no sites: list (a file owns only sites of a kind it declares)');
  }
  return state;
}

/** yaml refuses an alias bomb (or an alias before its anchor) while converting: a problem of the file, at its first alias. */
function aliasProblem(doc: Document, e: ReferenceError, at: (offset: number) => string): Problem {
  let first: Node | undefined;
  visit(doc, {
    Alias(_key, node) {
      first = node;
      return visit.BREAK;
    },
  });
  const where = at(first?.range?.[0] ?? 0);
  if (/Excessive alias count/.test(e.message)) {
    return {
      where,
      path: '',
      message: `aliases are limited to ${plural(ORG_FILE_LIMITS.aliasCount, 'copy', 'copies')} of an anchored value (nested aliases multiply), and this file's make more`,
    };
  }
  return { where, path: '', message: e.message };
}

// ---------------------------------------------------------------------------------------------
// Places in the document

/** The offset of the node at `path` (or of the key `keyName` in the map there), else of its nearest ancestor. */
function nodeOffset(doc: Document, path: Path, keyName?: string): number {
  let node: unknown = doc.contents;
  let offset = (doc.contents as Node | null)?.range?.[0] ?? 0;
  const steps = keyName !== undefined ? path.slice(0, -1) : path;
  for (const step of steps) {
    const next = isMap(node) || isSeq(node) ? node.get(step, true) : undefined;
    if (next === undefined || next === null) break;
    node = next;
    offset = (node as Node).range?.[0] ?? offset;
  }
  if (keyName !== undefined && isMap(node)) {
    const pair = node.items.find((p) => isScalar(p.key) && p.key.value === keyName);
    if (pair && isScalar(pair.key)) offset = pair.key.range?.[0] ?? offset;
  }
  return offset;
}

const ENV_PATTERN = /\$(\$?)\{env:([^}]*)\}/g;
const ENV_VALUE = /^\$\{env:([^}]*)\}$/;

/** docsctl's own variables (DOCSCTL_TOKEN: its credentials) are never read by a file. */
const OWN_VARIABLES = /^DOCSCTL_/i;

/**
 * `${env:NAME}` takes the variable's value only as the whole value of a field the schema says takes
 * a secret (isSecretField: a SAML certificate), and never from docsctl's own variables; anywhere
 * else it is a problem at its place. `$${env:NAME}` is the text `${env:NAME}`, anywhere. Returns
 * the variable each substituted field came from (by path text), for plan to show instead of it. An
 * error never quotes a variable's value.
 */
function substituteEnv(
  doc: Document,
  env: NodeJS.ProcessEnv,
  fail: (node: Node, path: Path, message: string) => void,
  unset: (node: Node, path: Path, name: string) => void,
): Map<string, string> {
  const from = new Map<string, string>();
  visit(doc, {
    Scalar(key, node, ancestors) {
      if (key === 'key' || typeof node.value !== 'string' || !node.value.includes('${')) return;
      const text = node.value;
      const path = pathOf(ancestors, node);
      const refs = [...text.matchAll(ENV_PATTERN)].filter((m) => !m[1]);
      if (refs.length === 0) {
        node.value = text.replace(ENV_PATTERN, (whole) => whole.slice(1));
        return;
      }
      const ref = `\${env:${refs[0][2]}}`;
      if (!isSecretField(path)) {
        fail(
          node,
          path,
          `${ref}: only a field that takes a secret (saml[].certificate) takes a value from the environment; write the value itself here (or $${ref} for the text ${ref})`,
        );
        return;
      }
      const whole = ENV_VALUE.exec(text);
      if (!whole) {
        fail(node, path, `${ref}: a value from the environment is the whole field, as in certificate: ${ref}`);
        return;
      }
      const name = whole[1];
      if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) {
        fail(node, path, `${ref}: not a variable name`);
        return;
      }
      if (OWN_VARIABLES.test(name)) {
        fail(node, path, `${ref}: docsctl's own variables (DOCSCTL_…, its credentials among them) are never read by an organization file`);
        return;
      }
      if (node.anchor) {
        fail(node, path, `${ref}: a value from the environment cannot have an anchor (&${node.anchor}): aliases would copy it into other fields`);
        return;
      }
      const value = env[name];
      if (value === undefined) {
        unset(node, path, name);
        return;
      }
      node.value = value;
      from.set(pathText(path), name);
    },
  });
  return from;
}

/** The path of a node from its ancestors (as `visit` gives them). */
function pathOf(ancestors: readonly unknown[], node: unknown): Path {
  const out: Path = [];
  const chain = [...ancestors, node];
  for (let i = 0; i < chain.length - 1; i++) {
    const a = chain[i];
    if (isPair(a)) out.push(isScalar(a.key) ? String(a.key.value) : '?');
    else if (isSeq(a)) out.push(a.items.indexOf(chain[i + 1] as never));
  }
  return out;
}

const FIELD_HINTS = new Map<string, string>([
  ['name', 'title'],
  ['collection', 'parent'],
  ['children', 'sections'],
  ['groups', 'sections'],
  ['spaces', 'siteSpaces'],
  ['slug', 'key'],
]);
/** Names that are no field of any object (JavaScript's own), said so rather than guessed at. */
const RESERVED = new Set(['__proto__', 'constructor', 'prototype']);
function suggestField(k: string): string {
  if (RESERVED.has(k)) return ' (a reserved name, never a field)';
  const hint = FIELD_HINTS.get(k);
  return hint ? ` (did you mean ${hint}?)` : '';
}

// ---------------------------------------------------------------------------------------------
// From the file's data to the desired organization

/** How normalize places and reports what it finds, in the files the items came from. */
interface Places {
  where: (path: Path) => string;
  report: (path: Path, message: string) => void;
  /** `collections[0] (org.yaml:4:5)`: another item named in a message. */
  place: (path: Path) => string;
  /** The folder of the file a path is in. */
  baseDirOf: (path: Path) => string;
  /** The variable a field's value came from. */
  envOf: (path: Path) => string | undefined;
  /** Whether a field's `${env:}` gave no value (then it is not checked). */
  unresolved: (path: Path) => boolean;
  /** Keys of items left out for their problems (references to them are not reported). */
  known: Record<Kind, Set<string>>;
}

function normalize(data: OrgFileData, kinds: Set<Kind>, places: Places): Desired {
  const { where, report, place, known } = places;
  const keysOf = <T extends { key?: string }>(kind: string, items: T[], pathOf: (i: number) => Path, titleOf: (t: T) => string, fallback: string) => {
    const alloc = new KeyAllocator();
    const first = new Map<string, number>();
    // Keys written in the file first; a derived key that collides says so.
    items.forEach((item, i) => {
      if (item.key === undefined) return;
      if (first.has(item.key))
        report(
          [...pathOf(i), 'key'],
          `duplicate key ${JSON.stringify(item.key)}: ${place(pathOf(first.get(item.key)!))} has it too (keys are unique among ${kind})`,
        );
      else first.set(item.key, i);
      alloc.reserve(item.key);
    });
    return items.map((item, i) => {
      if (item.key !== undefined) return item.key;
      const derived = slug(titleOf(item), fallback);
      if (alloc.has(derived)) {
        const other = first.get(derived);
        report(
          pathOf(i),
          `duplicate key ${JSON.stringify(derived)} (from its title)${other !== undefined ? `: ${place(pathOf(other))} has it too` : ''}; give one of them a key`,
        );
      } else {
        first.set(derived, i);
        alloc.reserve(derived);
      }
      return derived;
    });
  };

  // Collections
  const fileCollections = data.collections ?? [];
  const cKeys = keysOf(
    'collections',
    fileCollections,
    (i) => ['collections', i],
    (c) => c.title,
    'collection',
  );
  const collections: DCollection[] = fileCollections.map((c, i) => ({
    key: cKeys[i],
    ...(c.id ? { id: c.id } : {}),
    title: c.title,
    ...(c.description !== undefined ? { description: c.description } : {}),
    ...(c.defaultLevel !== undefined ? { defaultLevel: c.defaultLevel } : {}),
    parent: c.parent ?? null,
    ...(c.access !== undefined ? { access: grantsOf(c.access, ['collections', i]) } : {}),
    at: ['collections', i],
  }));
  const collectionKeys = new Set([...cKeys, ...known.collections]);
  if (kinds.has('collections')) {
    collections.forEach((c) => {
      if (c.parent !== null && !collectionKeys.has(c.parent))
        report([...c.at, 'parent'], `no collection with key ${JSON.stringify(c.parent)}${nearby(c.parent, cKeys)}`);
    });
    // Cycles: follow each parent chain.
    const byKey = new Map(collections.map((c) => [c.key, c]));
    const reported = new Set<string>();
    for (const c of collections) {
      const chain: string[] = [c.key];
      for (let p = c.parent; p !== null && byKey.has(p); p = byKey.get(p)!.parent) {
        if (p === c.key) {
          const cycle = [...chain, p];
          if (!cycle.some((k) => reported.has(k))) report([...c.at, 'parent'], `cycle of collections: ${cycle.join(' → ')}`);
          cycle.forEach((k) => reported.add(k));
          break;
        }
        if (chain.includes(p)) break;
        chain.push(p);
      }
    }
  }

  // Members (before spaces: merge rules name them)
  const fileMembers = data.members ?? [];
  const mKeys = keysOf(
    'members',
    fileMembers,
    (i) => ['members', i],
    (m) => (m.name ? m.name : m.id),
    'member',
  );
  const members: DMember[] = fileMembers.map((m, i) => ({
    key: mKeys[i],
    id: m.id,
    ...(m.name !== undefined ? { name: m.name } : {}),
    ...(m.email !== undefined ? { email: m.email } : {}),
    role: m.role === 'guest' ? null : (m.role as Role),
    at: ['members', i],
  }));
  const seenUsers = new Map<string, number>();
  members.forEach((m, i) => {
    if (seenUsers.has(m.id)) report([...m.at, 'id'], `duplicate member: user ${m.id} is also ${place(['members', seenUsers.get(m.id)!])}`);
    else seenUsers.set(m.id, i);
  });
  const memberKeys = new Set([...mKeys, ...known.members]);

  // Spaces
  const fileSpaces = data.spaces ?? [];
  const sKeys = keysOf(
    'spaces',
    fileSpaces,
    (i) => ['spaces', i],
    (s) => s.title,
    'space',
  );
  const spaces: DSpace[] = fileSpaces.map((s, i) => ({
    key: sKeys[i],
    ...(s.id ? { id: s.id } : {}),
    title: s.title,
    ...(s.emoji !== undefined ? { emoji: s.emoji } : {}),
    parent: s.parent ?? null,
    ...(s.visibility !== undefined ? { visibility: s.visibility } : {}),
    ...(s.editMode !== undefined ? { editMode: s.editMode } : {}),
    ...(s.defaultLevel !== undefined ? { defaultLevel: s.defaultLevel } : {}),
    ...(s.language !== undefined ? { language: s.language } : {}),
    ...(s.mergeRules !== undefined ? { mergeRules: s.mergeRules } : {}),
    ...(s.access !== undefined ? { access: grantsOf(s.access, ['spaces', i]) } : {}),
    at: ['spaces', i],
  }));
  if (kinds.has('collections')) {
    spaces.forEach((s) => {
      if (s.parent !== null && !collectionKeys.has(s.parent))
        report([...s.at, 'parent'], `no collection with key ${JSON.stringify(s.parent)}${nearby(s.parent, cKeys)}`);
    });
  }
  if (kinds.has('members')) {
    spaces.forEach((s) => {
      if (s.mergeRules?.type !== 'rules') return;
      s.mergeRules.rules.forEach((rule, r) =>
        ('users' in rule ? rule.users : []).forEach((u, j) => {
          if (!memberKeys.has(u)) report([...s.at, 'mergeRules', 'rules', r, 'users', j], `no member with key ${JSON.stringify(u)}${nearby(u, mKeys)}`);
        }),
      );
    });
  }
  const spaceKeys = new Set([...sKeys, ...known.spaces]);

  // Sites
  const fileSites = data.sites ?? [];
  const siteKeys = keysOf(
    'sites',
    fileSites,
    (i) => ['sites', i],
    (s) => s.title,
    'site',
  );
  const sites: DSite[] = fileSites.map((s, i) => {
    const at: Path = ['sites', i];
    if (s.siteSpaces !== undefined && s.sections !== undefined) {
      report(at, 'a site has either siteSpaces (no sections) or sections, not both');
    }
    const structure = structureOf(s.siteSpaces, s.sections as (FileSection | FileGroup)[] | undefined, at, report);
    if (structure && kinds.has('spaces')) {
      for (const ss of walkDesired(structure).siteSpaces) {
        if (!spaceKeys.has(ss.space)) report([...ss.at, 'space'], `no space with key ${JSON.stringify(ss.space)}${nearby(ss.space, sKeys)}`);
      }
    }
    return {
      key: siteKeys[i],
      ...(s.id ? { id: s.id } : {}),
      title: s.title,
      ...(s.type !== undefined ? { type: s.type } : {}),
      ...(s.visibility !== undefined ? { visibility: s.visibility } : {}),
      ...(s.published !== undefined ? { published: s.published } : {}),
      ...(s.basename !== undefined ? { basename: s.basename } : {}),
      ...(s.defaultLevel !== undefined ? { defaultLevel: s.defaultLevel } : {}),
      ...(s.adaptiveContent !== undefined ? { adaptiveContent: s.adaptiveContent } : {}),
      ...(s.agentsContext !== undefined ? { agentsContext: s.agentsContext } : {}),
      ...(s.adaptiveSchema !== undefined ? { adaptiveSchema: s.adaptiveSchema } : {}),
      ...(structure ? { structure } : {}),
      ...(s.access !== undefined ? { access: grantsOf(s.access, at) } : {}),
      at,
    };
  });

  // SAML providers
  const fileSaml = data.saml ?? [];
  const samlKeys = keysOf(
    'SAML providers',
    fileSaml,
    (i) => ['saml', i],
    (p) => p.label,
    'provider',
  );
  const saml: DSaml[] = fileSaml.map((p, i) => {
    const at: Path = ['saml', i];
    let certificate: string | undefined;
    let origin: string | undefined;
    let field: Path = [...at, 'certificate'];
    let certificateUnset: string | undefined;
    if (places.unresolved(field)) {
      // An unset variable (said already, or an unknown value): nothing to check.
      if (typeof p.certificate === 'string') certificateUnset = ENV_VALUE.exec(p.certificate)?.[1];
    } else if (typeof p.certificate === 'string') {
      certificate = p.certificate;
      const variable = places.envOf(field);
      origin = variable !== undefined ? `\${env:${variable}}` : undefined;
    } else if (p.certificate) {
      field = [...field, 'file'];
      origin = p.certificate.file;
      try {
        certificate = readCertificateFile(places.baseDirOf(at), p.certificate.file, ORG_FILE_LIMITS.certificateBytes);
      } catch (e) {
        if (!(e instanceof ReadRefused)) throw e;
        report(field, `${p.certificate.file}: ${e.message}`);
      }
    }
    // Checked whatever its origin: only a certificate is sent, and it is shown by its fingerprint.
    let certificateShown: string | undefined;
    if (certificate !== undefined) {
      const check = checkCertificate(certificate);
      if (check.ok) certificateShown = `${certificateLabel(check.der)}${origin !== undefined ? ` (${origin})` : ''}`;
      else {
        report(field, `${origin !== undefined ? `${origin}: ` : ''}${check.why}`);
        certificate = undefined;
      }
    }
    return {
      key: samlKeys[i],
      ...(p.id ? { id: p.id } : {}),
      label: p.label,
      ...(p.entityID !== undefined ? { entityID: p.entityID } : {}),
      ...(p.ssoURL !== undefined ? { ssoURL: p.ssoURL } : {}),
      ...(certificate !== undefined && certificateShown !== undefined ? { certificate, certificateShown } : {}),
      ...(certificateUnset !== undefined ? { certificateUnset } : {}),
      ...(p.defaultRole !== undefined ? { defaultRole: p.defaultRole === 'guest' ? null : (p.defaultRole as Role) } : {}),
      ...(p.defaultTeam !== undefined ? { defaultTeam: p.defaultTeam } : {}),
      at,
    };
  });

  // OpenAPI specifications: the slug is the key (the service finds it whatever its case).
  const seenSlugs = new Map<string, number>();
  const openapi: DSpec[] = (data.openapi ?? []).map((s, i) => {
    const at: Path = ['openapi', i];
    const lower = s.slug.toLowerCase();
    if (seenSlugs.has(lower))
      report(
        [...at, 'slug'],
        `duplicate slug ${JSON.stringify(s.slug)}: ${place(['openapi', seenSlugs.get(lower)!])} has it too (slugs are unique, whatever their case)`,
      );
    else seenSlugs.set(lower, i);
    let file: DSpec['file'];
    if (s.file !== undefined && s.url !== undefined) report([...at, 'file'], 'give its url or its file, not both');
    else if (s.file !== undefined) {
      try {
        file = { path: s.file, text: readCertificateFile(places.baseDirOf(at), s.file, ORG_FILE_LIMITS.openapiFileBytes, 'an OpenAPI document file') };
      } catch (e) {
        if (!(e instanceof ReadRefused)) throw e;
        report([...at, 'file'], `${s.file}: ${e.message}`);
      }
    }
    return {
      slug: s.slug,
      ...(s.url !== undefined ? { url: s.url } : {}),
      ...(file ? { file } : {}),
      ...(s.visibility !== undefined ? { visibility: s.visibility } : {}),
      at,
    };
  });

  // Teams, the access of collections, spaces and sites, the organization's settings (access-source.ts).
  const teams = normalizeTeams(data.teams ?? [], keysOf);
  const accessKeys: AccessKeys = {
    kinds,
    members: memberKeys,
    teams: new Set([...teams.map((t) => t.key), ...known.teams]),
    sites: new Set([...siteKeys, ...known.sites]),
    nearby,
    place,
  };
  checkTeams(teams, accessKeys, report);
  checkAccess([...collections, ...spaces, ...sites], accessKeys, report);
  saml.forEach((p) => checkTeamRef(p.defaultTeam, [...p.at, 'defaultTeam'], accessKeys, report));
  const settings = typeof data.organization === 'object' ? normalizeSettings(data.organization, accessKeys, report) : undefined;

  const keysOfKind = { collections: cKeys, spaces: sKeys, sites: siteKeys, saml: samlKeys };
  const moved = movedNotes(data.moved ?? [], (kind) => keysOfKind[kind], report);

  return {
    source: '',
    moved,
    kinds,
    collections,
    spaces,
    sites,
    members,
    saml,
    openapi,
    teams,
    ...(settings ? { settings } : {}),
    where,
  };
}

/** A site's structure from the file, with keys and the rules of one site (unique keys and paths, one default). */
function structureOf(
  siteSpaces: FileSiteSpaceT[] | undefined,
  sections: (FileSection | FileGroup)[] | undefined,
  at: Path,
  report: (path: Path, message: string) => void,
): DStructure | undefined {
  const ssKeys = new KeyAllocator();
  const ssSeen = new Map<string, Path>();
  const toSiteSpace = (ss: FileSiteSpaceT, path: Path): DSiteSpace => {
    const key = ss.key ?? ss.space;
    if (ssSeen.has(key)) {
      report(
        ss.key !== undefined ? [...path, 'key'] : path,
        `duplicate key ${JSON.stringify(key)}${ss.key === undefined ? ' (from its space)' : ''}: ${pathText(ssSeen.get(key)!)} has it too (site spaces' keys are unique within their site; give one of them a key)`,
      );
    } else ssSeen.set(key, path);
    ssKeys.reserve(key);
    return {
      key,
      explicitKey: ss.key !== undefined,
      ...(ss.id ? { id: ss.id } : {}),
      space: ss.space,
      ...(ss.path !== undefined ? { path: ss.path } : {}),
      ...(ss.condition !== undefined ? { condition: ss.condition } : {}),
      ...(ss.hidden !== undefined ? { hidden: ss.hidden } : {}),
      ...(ss.default !== undefined ? { default: ss.default } : {}),
      at: path,
    };
  };
  const listRules = (list: DSiteSpace[], listPath: Path) => {
    const defaults = list.filter((ss) => ss.default);
    if (defaults.length > 1) report([...defaults[1].at, 'default'], `only one site space of a list is the default (${pathText(defaults[0].at)} is too)`);
    const paths = new Map<string, Path>();
    for (const ss of list) {
      if (ss.path === undefined) continue;
      if (paths.has(ss.path))
        report([...ss.at, 'path'], `duplicate path ${JSON.stringify(ss.path)} in ${pathText(listPath)}: ${pathText(paths.get(ss.path)!)} has it too`);
      else paths.set(ss.path, ss.at);
    }
  };

  if (siteSpaces !== undefined) {
    const list = siteSpaces.map((ss, i) => toSiteSpace(ss, [...at, 'siteSpaces', i]));
    listRules(list, [...at, 'siteSpaces']);
    return { mode: 'siteSpaces', siteSpaces: list };
  }
  if (sections === undefined) return undefined;

  const sectionKeys = new Map<string, Path>();
  const groupKeys = new Map<string, Path>();
  const sectionPaths = new Map<string, Path>();
  const defaults: Path[] = [];
  const unique = (seen: Map<string, Path>, key: string, explicit: boolean, path: Path, what: string) => {
    if (seen.has(key)) {
      report(
        explicit ? [...path, 'key'] : path,
        `duplicate key ${JSON.stringify(key)}${explicit ? '' : ' (from its title)'}: ${pathText(seen.get(key)!)} has it too (${what}' keys are unique within their site${explicit ? '' : '; give one of them a key'})`,
      );
    } else seen.set(key, path);
  };
  const toNode = (item: FileSection | FileGroup, path: Path): DNode => {
    if (item.group === true) {
      const key = item.key ?? slug(item.title, 'group');
      unique(groupKeys, key, item.key !== undefined, path, 'section groups');
      const group: DGroup = {
        type: 'group',
        key,
        ...(item.id ? { id: item.id } : {}),
        title: item.title,
        ...(item.icon !== undefined ? { icon: item.icon } : {}),
        children: item.sections.map((child, i) => toNode(child, [...path, 'sections', i])),
        at: path,
      };
      return group;
    }
    const key = item.key ?? slug(item.title, 'section');
    unique(sectionKeys, key, item.key !== undefined, path, 'sections');
    if (item.default) defaults.push(path);
    if (item.path !== undefined) {
      if (sectionPaths.has(item.path))
        report(
          [...path, 'path'],
          `duplicate path ${JSON.stringify(item.path)}: ${pathText(sectionPaths.get(item.path)!)} has it too (sections' paths are unique within their site)`,
        );
      else sectionPaths.set(item.path, path);
    }
    const list = item.siteSpaces.map((ss, i) => toSiteSpace(ss as FileSiteSpaceT, [...path, 'siteSpaces', i]));
    listRules(list, [...path, 'siteSpaces']);
    const section: DSection = {
      type: 'section',
      key,
      ...(item.id ? { id: item.id } : {}),
      title: item.title,
      ...(item.path !== undefined ? { path: item.path } : {}),
      ...(item.icon !== undefined ? { icon: item.icon } : {}),
      ...(item.description !== undefined ? { description: item.description } : {}),
      ...(item.condition !== undefined ? { condition: item.condition } : {}),
      ...(item.default !== undefined ? { default: item.default } : {}),
      siteSpaces: list,
      at: path,
    };
    return section;
  };
  const items = sections.map((item, i) => toNode(item, [...at, 'sections', i]));
  if (defaults.length > 1) report([...defaults[1], 'default'], `only one section of a site is the default (${pathText(defaults[0])} is too)`);
  return { mode: 'sections', items };
}

/** ` (did you mean "guides"?)` when a key is close to one of `keys`. */
export function nearby(key: string, keys: Iterable<string>): string {
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const k of keys) {
    const d = distance(key, k);
    if (d < bestDistance) {
      best = k;
      bestDistance = d;
    }
  }
  return best !== undefined && bestDistance <= Math.max(2, Math.floor(key.length / 3)) ? ` (did you mean ${JSON.stringify(best)}?)` : '';
}

function distance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    let prev = row[0];
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const cur = row[j];
      row[j] = Math.min(row[j] + 1, row[j - 1] + 1, prev + (a[i - 1] === b[j - 1] ? 0 : 1));
      prev = cur;
    }
  }
  return row[b.length];
}

/**
 * Whether a --seed file is an organization file (`version:` at the top, YAML or JSON) rather than a
 * sandbox fixture. Text larger than an org file may be (`maxBytes`) is not parsed as YAML: JSON
 * that is no fixture, or anything that is not JSON, is taken as an org file (and refused for its size).
 */
export function isOrgFile(text: string, maxBytes = ORG_FILE_LIMITS.fileBytes): boolean {
  if (Buffer.byteLength(text) > maxBytes) {
    try {
      const value = JSON.parse(text) as unknown;
      return typeof value === 'object' && value !== null && !('organizations' in value);
    } catch {
      return true;
    }
  }
  try {
    const doc = parseDocument(text);
    const top = doc.contents;
    return isMap(top) && top.has('version') && !top.has('organizations');
  } catch {
    return false;
  }
}
