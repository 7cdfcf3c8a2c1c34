/**
 * Reading an organization file: YAML or JSON, `${env:NAME}` values, certificates from files, the
 * schema, then the rules the schema cannot say (keys unique within their kind, references to keys
 * that exist, no cycle of collections, one default per list, unique paths). Every problem is given
 * with its place, `org.yaml:12:7: spaces[3].parent: no collection "guidez"`, all of them at once,
 * before anything is sent.
 */
import { dirname, resolve } from 'node:path';
import { isMap, isPair, isScalar, isSeq, LineCounter, parseDocument, visit, type Document, type Node } from 'yaml';
import { describeIssue } from '../contract/issues.js';
import type { Role } from '../contract/op.js';
import { checkCertificate } from '../cli/certificate.js';
import { certificateLabel } from './certificate.js';
import { KeyAllocator, slug } from './keys.js';
import { bytesText } from '../cli/read.js';
import { FILE_BYTES_VARIABLE, ORG_FILE_LIMITS } from './limits.js';
import { readCertificateFile, readOrgFileText, ReadRefused } from './read.js';
import type { DCollection, Desired, DGroup, DMember, DNode, DSaml, DSection, DSite, DSiteSpace, DSpace, DSpec, DStructure, Path } from './model.js';
import { walkDesired } from './model.js';
import { isSecretField, KINDS, OrgFile, type FileGroup, type FileSection, type FileSiteSpaceT, type Kind, type OrgFileData } from './schema.js';
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

function formatProblems(source: string, problems: Problem[]): string {
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
  /** The largest file taken, in bytes (default: ORG_FILE_LIMITS.fileBytes). */
  maxBytes?: number;
}

/** How to raise the size bound, for its message. */
const RAISE_SIZE = `${FILE_BYTES_VARIABLE} raises it`;

/** Read and check a file from disk (never more than `maxBytes` of it). Throws OrgFileError. */
export function loadOrgFile(file: string, opts: LoadOptions = {}): Desired {
  let text: string;
  try {
    text = readOrgFileText(file, opts.maxBytes ?? ORG_FILE_LIMITS.fileBytes, RAISE_SIZE);
  } catch (e) {
    if (e instanceof ReadRefused) throw new OrgFileError(file, [{ where: file, path: '', message: e.message }]);
    throw e;
  }
  return parseOrgFile(text, file, { baseDir: dirname(resolve(file)), ...opts });
}

/** Check a file's text (YAML, or JSON, which YAML reads too). Throws OrgFileError. */
export function parseOrgFile(text: string, source: string, opts: LoadOptions = {}): Desired {
  const maxBytes = opts.maxBytes ?? ORG_FILE_LIMITS.fileBytes;
  const size = Buffer.byteLength(text);
  if (size > maxBytes) {
    throw new OrgFileError(source, [
      { where: source, path: '', message: `${plural(size, 'byte')}: larger than ${bytesText(maxBytes)}, the limit of an organization file (${RAISE_SIZE})` },
    ]);
  }
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines, prettyErrors: false, uniqueKeys: true, strict: true });
  const at = (offset: number) => {
    const { line, col } = lines.linePos(offset);
    return `${source}:${line}:${col}`;
  };
  const syntax = [...doc.errors].map((e): Problem => ({ where: at(e.pos[0]), path: '', message: e.message.replace(/ at line \d+, column \d+:?[\s\S]*$/, '') }));
  if (syntax.length) throw new OrgFileError(source, syntax);

  const problems: Problem[] = [];
  const where = (path: Path, keyName?: string) => at(nodeOffset(doc, path, keyName));
  const report = (path: Path, message: string, keyName?: string) => problems.push({ where: where(path, keyName), path: pathText(path), message });

  const fromEnv = substituteEnv(doc, opts.env ?? {}, (node, path, message) =>
    problems.push({ where: at(node.range?.[0] ?? 0), path: pathText(path), message }),
  );
  if (problems.length) throw new OrgFileError(source, problems);

  let raw: unknown;
  try {
    raw = doc.toJS({ maxAliasCount: ORG_FILE_LIMITS.aliasCount });
  } catch (e) {
    if (!(e instanceof ReferenceError)) throw e;
    throw new OrgFileError(source, [aliasProblem(doc, e, at)]);
  }
  if (raw === null || raw === undefined)
    throw new OrgFileError(source, [{ where: at(0), path: '', message: 'the file is empty: it needs at least version: 1' }]);
  const parsed = OrgFile.safeParse(raw);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const path = issue.path as Path;
      if (issue.code === 'unrecognized_keys') {
        for (const k of issue.keys) report([...path, k], `unknown field ${JSON.stringify(k)}${suggestField(k)}`, k);
      } else {
        report(path, describeIssue(issue, raw));
      }
    }
    throw new OrgFileError(source, problems);
  }
  const desired = normalize(parsed.data, source, (path) => where(path), report, opts.baseDir ?? process.cwd(), fromEnv);
  if (problems.length) throw new OrgFileError(source, problems);
  return desired;
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
function substituteEnv(doc: Document, env: NodeJS.ProcessEnv, fail: (node: Node, path: Path, message: string) => void): Map<string, string> {
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
        fail(node, path, `${ref}: the environment variable ${name} is not set`);
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

function normalize(
  data: OrgFileData,
  source: string,
  where: (path: Path) => string,
  report: (path: Path, message: string) => void,
  baseDir: string,
  fromEnv: Map<string, string>,
): Desired {
  const kinds = new Set<Kind>(KINDS.filter((k) => data[k] !== undefined));
  const keysOf = <T extends { key?: string }>(kind: string, items: T[], pathOf: (i: number) => Path, titleOf: (t: T) => string, fallback: string) => {
    const alloc = new KeyAllocator();
    const first = new Map<string, number>();
    // Keys written in the file first; a derived key that collides says so.
    items.forEach((item, i) => {
      if (item.key === undefined) return;
      if (first.has(item.key))
        report(
          [...pathOf(i), 'key'],
          `duplicate key ${JSON.stringify(item.key)}: ${pathText(pathOf(first.get(item.key)!))} has it too (keys are unique among ${kind})`,
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
          `duplicate key ${JSON.stringify(derived)} (from its title)${other !== undefined ? `: ${pathText(pathOf(other))} has it too` : ''}; give one of them a key`,
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
    at: ['collections', i],
  }));
  const collectionKeys = new Set(cKeys);
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
    if (seenUsers.has(m.id)) report([...m.at, 'id'], `duplicate member: user ${m.id} is also members[${seenUsers.get(m.id)}]`);
    else seenUsers.set(m.id, i);
  });
  const memberKeys = new Set(mKeys);

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
  const spaceKeys = new Set(sKeys);

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
    if (typeof p.certificate === 'string') {
      certificate = p.certificate;
      const variable = fromEnv.get(pathText(field));
      origin = variable !== undefined ? `\${env:${variable}}` : undefined;
    } else if (p.certificate) {
      field = [...field, 'file'];
      origin = p.certificate.file;
      try {
        certificate = readCertificateFile(baseDir, p.certificate.file, ORG_FILE_LIMITS.certificateBytes);
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
      report([...at, 'slug'], `duplicate slug ${JSON.stringify(s.slug)}: openapi[${seenSlugs.get(lower)}] has it too (slugs are unique, whatever their case)`);
    else seenSlugs.set(lower, i);
    return { slug: s.slug, ...(s.url !== undefined ? { url: s.url } : {}), ...(s.visibility !== undefined ? { visibility: s.visibility } : {}), at };
  });

  return {
    source,
    ...(data.organization ? { organization: data.organization } : {}),
    kinds,
    collections,
    spaces,
    sites,
    members,
    saml,
    openapi,
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
