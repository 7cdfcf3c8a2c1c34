/**
 * Reading an organization file: YAML or JSON, `${env:NAME}` values, certificates from files, the
 * schema, then the rules the schema cannot say (keys unique within their kind, references to keys
 * that exist, no cycle of collections, one default per list, unique paths). Every problem is given
 * with its place, `org.yaml:12:7: spaces[3].parent: no collection "guidez"`, all of them at once,
 * before anything is sent.
 */
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { isMap, isPair, isScalar, isSeq, LineCounter, parseDocument, visit, type Document, type Node } from 'yaml';
import { describeIssue } from '../contract/issues.js';
import type { Role } from '../contract/op.js';
import { samlCertificate } from '../contract/saml.js';
import { KeyAllocator, slug } from './keys.js';
import type {
  DCollection, Desired, DGroup, DMember, DNode, DSaml, DSection, DSite, DSiteSpace, DSpace, DSpec, DStructure, Path,
} from './model.js';
import { walkDesired } from './model.js';
import { KINDS, OrgFile, type FileGroup, type FileSection, type FileSiteSpaceT, type Kind, type OrgFileData } from './schema.js';

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

export function formatProblems(source: string, problems: Problem[]): string {
  const head = problems.length === 1 ? `${source}: 1 problem` : `${source}: ${problems.length} problems`;
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
  /** The folder certificate files are relative to (default: the file's). */
  baseDir?: string;
}

/** Read and check a file from disk. Throws OrgFileError. */
export function loadOrgFile(file: string, opts: LoadOptions = {}): Desired {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    throw new OrgFileError(file, [{ where: file, path: '', message: `cannot read it (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})` }]);
  }
  return parseOrgFile(text, file, { baseDir: dirname(resolve(file)), ...opts });
}

/** Check a file's text (YAML, or JSON, which YAML reads too). Throws OrgFileError. */
export function parseOrgFile(text: string, source: string, opts: LoadOptions = {}): Desired {
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

  substituteEnv(doc, opts.env ?? {}, (node, message) => problems.push({ where: at(node.range?.[0] ?? 0), path: pathOfNode(doc, node), message }));
  if (problems.length) throw new OrgFileError(source, problems);

  const raw = doc.toJS({ maxAliasCount: 100 }) as unknown;
  if (raw === null || raw === undefined) throw new OrgFileError(source, [{ where: at(0), path: '', message: 'the file is empty: it needs at least version: 1' }]);
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
  const desired = normalize(parsed.data, source, (path) => where(path), report, opts.baseDir ?? process.cwd());
  if (problems.length) throw new OrgFileError(source, problems);
  return desired;
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

/** The path of a node in the document, as text (for the problems found before the schema runs). */
function pathOfNode(doc: Document, target: Node): string {
  const found: Path = [];
  const search = (node: unknown, path: Path): boolean => {
    if (node === target) {
      found.push(...path);
      return true;
    }
    if (isMap(node)) return node.items.some((p) => isPair(p) && isScalar(p.key) && search(p.value, [...path, String(p.key.value)]));
    if (isSeq(node)) return node.items.some((item, i) => search(item, [...path, i]));
    return false;
  };
  search(doc.contents, []);
  return pathText(found);
}

const ENV_PATTERN = /\$(\$?)\{env:([^}]*)\}/g;

/** `${env:NAME}` in string values becomes the variable's value (`$${env:NAME}` stays as `${env:NAME}`). */
function substituteEnv(doc: Document, env: NodeJS.ProcessEnv, fail: (node: Node, message: string) => void): void {
  visit(doc, {
    Scalar(key, node) {
      if (key === 'key' || typeof node.value !== 'string' || !node.value.includes('${')) return;
      node.value = node.value.replace(ENV_PATTERN, (whole, escaped: string, name: string) => {
        if (escaped) return whole.slice(1);
        if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) {
          fail(node, `\${env:${name}}: not a variable name`);
          return whole;
        }
        const value = env[name];
        if (value === undefined) {
          fail(node, `\${env:${name}}: the environment variable ${name} is not set`);
          return whole;
        }
        return value;
      });
    },
  });
}

const FIELD_HINTS: Record<string, string> = {
  name: 'title', collection: 'parent', children: 'sections', groups: 'sections', spaces: 'siteSpaces', slug: 'key',
};
function suggestField(k: string): string {
  return FIELD_HINTS[k] ? ` (did you mean ${FIELD_HINTS[k]}?)` : '';
}

// ---------------------------------------------------------------------------------------------
// From the file's data to the desired organization

function normalize(
  data: OrgFileData, source: string, where: (path: Path) => string,
  report: (path: Path, message: string) => void, baseDir: string,
): Desired {
  const kinds = new Set<Kind>(KINDS.filter((k) => data[k] !== undefined));
  const keysOf = <T extends { key?: string }>(kind: string, items: T[], pathOf: (i: number) => Path, titleOf: (t: T) => string, fallback: string) => {
    const alloc = new KeyAllocator();
    const first = new Map<string, number>();
    // Keys written in the file first; a derived key that collides says so.
    items.forEach((item, i) => {
      if (item.key === undefined) return;
      if (first.has(item.key)) report([...pathOf(i), 'key'], `duplicate key ${JSON.stringify(item.key)}: ${pathText(pathOf(first.get(item.key)!))} has it too (keys are unique among ${kind})`);
      else first.set(item.key, i);
      alloc.reserve(item.key);
    });
    return items.map((item, i) => {
      if (item.key !== undefined) return item.key;
      const derived = slug(titleOf(item), fallback);
      if (alloc.has(derived)) {
        const other = first.get(derived);
        report(pathOf(i), `duplicate key ${JSON.stringify(derived)} (from its title)${other !== undefined ? `: ${pathText(pathOf(other))} has it too` : ''}; give one of them a key`);
      } else {
        first.set(derived, i);
        alloc.reserve(derived);
      }
      return derived;
    });
  };

  // Collections
  const fileCollections = data.collections ?? [];
  const cKeys = keysOf('collections', fileCollections, (i) => ['collections', i], (c) => c.title, 'collection');
  const collections: DCollection[] = fileCollections.map((c, i) => ({
    key: cKeys[i], ...(c.id ? { id: c.id } : {}), title: c.title,
    ...(c.description !== undefined ? { description: c.description } : {}),
    ...(c.defaultLevel !== undefined ? { defaultLevel: c.defaultLevel } : {}),
    parent: c.parent ?? null, at: ['collections', i],
  }));
  const collectionKeys = new Set(cKeys);
  if (kinds.has('collections')) {
    collections.forEach((c) => {
      if (c.parent !== null && !collectionKeys.has(c.parent)) report([...c.at, 'parent'], `no collection with key ${JSON.stringify(c.parent)}${nearby(c.parent, cKeys)}`);
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
  const mKeys = keysOf('members', fileMembers, (i) => ['members', i], (m) => (m.name ? m.name : m.id), 'member');
  const members: DMember[] = fileMembers.map((m, i) => ({
    key: mKeys[i], id: m.id, ...(m.name !== undefined ? { name: m.name } : {}), ...(m.email !== undefined ? { email: m.email } : {}),
    role: m.role === 'guest' ? null : (m.role as Role), at: ['members', i],
  }));
  const seenUsers = new Map<string, number>();
  members.forEach((m, i) => {
    if (seenUsers.has(m.id)) report([...m.at, 'id'], `duplicate member: user ${m.id} is also members[${seenUsers.get(m.id)}]`);
    else seenUsers.set(m.id, i);
  });
  const memberKeys = new Set(mKeys);

  // Spaces
  const fileSpaces = data.spaces ?? [];
  const sKeys = keysOf('spaces', fileSpaces, (i) => ['spaces', i], (s) => s.title, 'space');
  const spaces: DSpace[] = fileSpaces.map((s, i) => ({
    key: sKeys[i], ...(s.id ? { id: s.id } : {}), title: s.title,
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
      if (s.parent !== null && !collectionKeys.has(s.parent)) report([...s.at, 'parent'], `no collection with key ${JSON.stringify(s.parent)}${nearby(s.parent, cKeys)}`);
    });
  }
  if (kinds.has('members')) {
    spaces.forEach((s) => {
      if (s.mergeRules?.type !== 'rules') return;
      s.mergeRules.rules.forEach((rule, r) => ('users' in rule ? rule.users : []).forEach((u, j) => {
        if (!memberKeys.has(u)) report([...s.at, 'mergeRules', 'rules', r, 'users', j], `no member with key ${JSON.stringify(u)}${nearby(u, mKeys)}`);
      }));
    });
  }
  const spaceKeys = new Set(sKeys);

  // Sites
  const fileSites = data.sites ?? [];
  const siteKeys = keysOf('sites', fileSites, (i) => ['sites', i], (s) => s.title, 'site');
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
      key: siteKeys[i], ...(s.id ? { id: s.id } : {}), title: s.title,
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
  const samlKeys = keysOf('SAML providers', fileSaml, (i) => ['saml', i], (p) => p.label, 'provider');
  const saml: DSaml[] = fileSaml.map((p, i) => {
    const at: Path = ['saml', i];
    let certificate: string | undefined;
    if (typeof p.certificate === 'string') certificate = p.certificate;
    else if (p.certificate) {
      const file = resolve(baseDir, p.certificate.file);
      try {
        certificate = readFileSync(file, 'utf8');
        const ok = samlCertificate.safeParse(certificate);
        if (!ok.success) report([...at, 'certificate', 'file'], `${p.certificate.file}: ${describeIssue(ok.error.issues[0])}`);
      } catch (e) {
        report([...at, 'certificate', 'file'], `cannot read ${p.certificate.file} (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
      }
    }
    return {
      key: samlKeys[i], ...(p.id ? { id: p.id } : {}), label: p.label,
      ...(p.entityID !== undefined ? { entityID: p.entityID } : {}),
      ...(p.ssoURL !== undefined ? { ssoURL: p.ssoURL } : {}),
      ...(certificate !== undefined ? { certificate } : {}),
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
    if (seenSlugs.has(lower)) report([...at, 'slug'], `duplicate slug ${JSON.stringify(s.slug)}: openapi[${seenSlugs.get(lower)}] has it too (slugs are unique, whatever their case)`);
    else seenSlugs.set(lower, i);
    return { slug: s.slug, ...(s.url !== undefined ? { url: s.url } : {}), ...(s.visibility !== undefined ? { visibility: s.visibility } : {}), at };
  });

  return {
    source, ...(data.organization ? { organization: data.organization } : {}), kinds,
    collections, spaces, sites, members, saml, openapi, where,
  };
}

/** A site's structure from the file, with keys and the rules of one site (unique keys and paths, one default). */
function structureOf(
  siteSpaces: FileSiteSpaceT[] | undefined, sections: (FileSection | FileGroup)[] | undefined, at: Path,
  report: (path: Path, message: string) => void,
): DStructure | undefined {
  const ssKeys = new KeyAllocator();
  const ssSeen = new Map<string, Path>();
  const toSiteSpace = (ss: FileSiteSpaceT, path: Path): DSiteSpace => {
    const key = ss.key ?? ss.space;
    if (ssSeen.has(key)) {
      report(ss.key !== undefined ? [...path, 'key'] : path,
        `duplicate key ${JSON.stringify(key)}${ss.key === undefined ? ' (from its space)' : ''}: ${pathText(ssSeen.get(key)!)} has it too (site spaces' keys are unique within their site; give one of them a key)`);
    } else ssSeen.set(key, path);
    ssKeys.reserve(key);
    return {
      key, explicitKey: ss.key !== undefined, ...(ss.id ? { id: ss.id } : {}), space: ss.space,
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
      if (paths.has(ss.path)) report([...ss.at, 'path'], `duplicate path ${JSON.stringify(ss.path)} in ${pathText(listPath)}: ${pathText(paths.get(ss.path)!)} has it too`);
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
      report(explicit ? [...path, 'key'] : path,
        `duplicate key ${JSON.stringify(key)}${explicit ? '' : ' (from its title)'}: ${pathText(seen.get(key)!)} has it too (${what}' keys are unique within their site${explicit ? '' : '; give one of them a key'})`);
    } else seen.set(key, path);
  };
  const toNode = (item: FileSection | FileGroup, path: Path): DNode => {
    if (item.group === true) {
      const key = item.key ?? slug(item.title, 'group');
      unique(groupKeys, key, item.key !== undefined, path, 'section groups');
      const group: DGroup = {
        type: 'group', key, ...(item.id ? { id: item.id } : {}), title: item.title,
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
      if (sectionPaths.has(item.path)) report([...path, 'path'], `duplicate path ${JSON.stringify(item.path)}: ${pathText(sectionPaths.get(item.path)!)} has it too (sections' paths are unique within their site)`);
      else sectionPaths.set(item.path, path);
    }
    const list = item.siteSpaces.map((ss, i) => toSiteSpace(ss as FileSiteSpaceT, [...path, 'siteSpaces', i]));
    listRules(list, [...path, 'siteSpaces']);
    const section: DSection = {
      type: 'section', key, ...(item.id ? { id: item.id } : {}), title: item.title,
      ...(item.path !== undefined ? { path: item.path } : {}),
      ...(item.icon !== undefined ? { icon: item.icon } : {}),
      ...(item.description !== undefined ? { description: item.description } : {}),
      ...(item.condition !== undefined ? { condition: item.condition } : {}),
      ...(item.default !== undefined ? { default: item.default } : {}),
      siteSpaces: list, at: path,
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

/** Whether a --seed file is an organization file (`version:` at the top, YAML or JSON) rather than a sandbox fixture. */
export function isOrgFile(text: string): boolean {
  try {
    const doc = parseDocument(text);
    const top = doc.contents;
    return isMap(top) && top.has('version') && !top.has('organizations');
  } catch {
    return false;
  }
}
