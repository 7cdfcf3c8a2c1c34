/**
 * The two sides a plan compares: the organization as the file wants it (`Desired`: items by key,
 * references by key, `undefined` for a field the file leaves out, which is then not managed) and as
 * the service has it (`Live`: items by id, references by id).
 */
import type { DefaultLevel, Role } from '../contract/op.js';
import type { AdaptiveJsonSchema } from '../contract/sites.js';
import type { OrganizationMergeRules } from '../contract/orgs.js';
import type { MergeRules } from '../contract/spaces.js';
import type { Owner } from './owns.js';
import type { Kind, MovableKind } from './schema.js';

/** What can be read of the organization: the kinds, the teams (for references), their members, the grants on content, its settings. */
export type ReadKind = Kind | 'team-members' | 'access' | 'organization';

/** Where an item or a value is in the file: its path (`sites.0.sections.1`). */
export type Path = (string | number)[];

// ---------------------------------------------------------------------------------------------
// Desired

/** A grant of an item's `access:`: a member (by key) or a team (by key), and its role. */
export interface DGrant {
  principal: 'user' | 'team';
  /** The member's or the team's key. */
  key: string;
  role: Role;
  at: Path;
}

export interface DTeam {
  key: string;
  id?: string;
  title: string;
  /** Member keys and their team role; undefined: its membership is not managed. */
  members?: { key: string; role: 'owner' | 'member'; at: Path }[];
  at: Path;
}

/** The organization's settings the file manages (a field left out is not). */
export interface DSettings {
  title?: string;
  emailDomains?: string[];
  hostname?: string;
  defaultRole?: Role | null;
  /** Site key; null: none. */
  defaultSite?: string | null;
  logo?: string | null;
  sso?: boolean;
  ai?: boolean;
  inviteLinks?: boolean;
  /** Users as member keys. */
  mergeRules?: OrganizationMergeRules;
  at: Path;
}

export interface DCollection {
  key: string;
  id?: string;
  title: string;
  description?: string;
  defaultLevel?: DefaultLevel;
  /** Key of the collection it is in; null: the root. */
  parent: string | null;
  /** Undefined: its grants are not managed. */
  access?: DGrant[];
  at: Path;
}

export interface DSpace {
  key: string;
  id?: string;
  title: string;
  emoji?: string;
  parent: string | null;
  visibility?: string;
  editMode?: 'live' | 'locked';
  defaultLevel?: DefaultLevel;
  language?: string;
  /** Users as member keys. */
  mergeRules?: MergeRules;
  access?: DGrant[];
  at: Path;
}

export interface DSiteSpace {
  key: string;
  /** Whether the key was written in the file (else it is the space's). */
  explicitKey: boolean;
  id?: string;
  /** Key of the space. */
  space: string;
  path?: string;
  condition?: string | null;
  hidden?: boolean;
  default?: boolean;
  at: Path;
}

export interface DSection {
  type: 'section';
  key: string;
  id?: string;
  title: string;
  path?: string;
  icon?: string | null;
  description?: string | null;
  condition?: string | null;
  default?: boolean;
  siteSpaces: DSiteSpace[];
  at: Path;
}

export interface DGroup {
  type: 'group';
  key: string;
  id?: string;
  title: string;
  icon?: string | null;
  children: DNode[];
  at: Path;
}

export type DNode = DSection | DGroup;

export type DStructure = { mode: 'siteSpaces'; siteSpaces: DSiteSpace[] } | { mode: 'sections'; items: DNode[] };

export interface DSite {
  key: string;
  id?: string;
  title: string;
  type?: string;
  visibility?: string;
  published?: boolean;
  basename?: string;
  defaultLevel?: DefaultLevel;
  adaptiveContent?: boolean;
  agentsContext?: string;
  adaptiveSchema?: AdaptiveJsonSchema;
  /** Undefined: the structure is not managed. */
  structure?: DStructure;
  access?: DGrant[];
  at: Path;
}

export interface DMember {
  key: string;
  /** The user id. */
  id: string;
  name?: string;
  email?: string;
  role: Role | null;
  at: Path;
}

export interface DSaml {
  key: string;
  id?: string;
  label: string;
  entityID?: string;
  ssoURL?: string;
  certificate?: string;
  /** How plans show it (with `certificate`): its fingerprint and where it came from, never its text. */
  certificateShown?: string;
  /** The variable of a `${env:NAME}` certificate that is not set (plan: unknown, unchanged; apply refuses to create without it). */
  certificateUnset?: string;
  defaultRole?: Role | null;
  /** Team key; null: none. */
  defaultTeam?: string | null;
  at: Path;
}

export interface DSpec {
  slug: string;
  url?: string;
  /** `file:`: the document's path as the file gives it, and its text (sent as the source). */
  file?: { path: string; text: string };
  visibility?: 'private' | 'public';
  at: Path;
}

export interface Desired {
  /** The file's name, for messages. */
  source: string;
  organization?: string;
  /** The kinds the file declares (only those are compared, and pruned). */
  kinds: Set<Kind>;
  collections: DCollection[];
  spaces: DSpace[];
  sites: DSite[];
  members: DMember[];
  saml: DSaml[];
  openapi: DSpec[];
  teams: DTeam[];
  /** The organization's settings, when the file manages some (`organization: {…}`). */
  settings?: DSettings;
  /** `moved:` notes: per kind, new key → old key (see moved.ts). */
  moved?: Map<MovableKind, Map<string, string>>;
  /** `file:line:column` of a path of the file (of the nearest node that exists). */
  where(path: Path): string;
  /** A path as its own file has it (`spaces[0]` of the second file, not of the items merged). */
  pathIn?(path: Path): string;
  /** What each file owns (what --prune may delete); left out: everything of the declared kinds. */
  owners?: Owner[];
}

// ---------------------------------------------------------------------------------------------
// Live

/** The grants on a collection, a space or a site (read only when access is): by user id and by team id. */
export interface LAccess {
  users: Record<string, Role>;
  teams: Record<string, Role>;
}

export interface LCollection {
  id: string;
  title: string;
  description?: string;
  defaultLevel: DefaultLevel;
  parent?: string;
  access?: LAccess;
}

export interface LSpace {
  id: string;
  title: string;
  emoji: string;
  visibility: string;
  parent?: string;
  editMode?: 'live' | 'locked';
  defaultLevel: DefaultLevel;
  language?: string;
  mergeRules: MergeRules;
  access?: LAccess;
}

export interface LSiteSpace {
  id: string;
  /** The space's id. */
  space: string;
  path: string;
  condition?: string;
  hidden: boolean;
  default: boolean;
}

export interface LSection {
  type: 'section';
  id: string;
  title: string;
  path: string;
  icon?: string;
  description?: string;
  condition?: string;
  default: boolean;
  siteSpaces: LSiteSpace[];
}

export interface LGroup {
  type: 'group';
  id: string;
  title: string;
  icon?: string;
  children: LNode[];
}

export type LNode = LSection | LGroup;

export type LStructure = { mode: 'siteSpaces'; siteSpaces: LSiteSpace[] } | { mode: 'sections'; items: LNode[] };

export interface LSite {
  id: string;
  title: string;
  type: string;
  visibility: string;
  published: boolean;
  basename?: string;
  defaultLevel: DefaultLevel;
  adaptiveContent: boolean;
  /** Absent when the service does not send it (it is not in the official document). */
  agentsContext?: string;
  adaptiveSchema?: AdaptiveJsonSchema;
  structure: LStructure;
  access?: LAccess;
}

interface LMember {
  id: string;
  name: string;
  email?: string;
  role: Role | null;
}

export interface LSaml {
  id: string;
  label: string;
  entityID: string;
  ssoURL: string;
  certificate: string;
  defaultRole: Role | null;
  defaultTeam?: { id: string; title: string };
}

interface LSpec {
  slug: string;
  url?: string;
  visibility: 'private' | 'public';
}

export interface LTeam {
  id: string;
  title: string;
  /** User id → team role (read only when teams are: `team-members`). */
  members?: Record<string, 'owner' | 'member'>;
}

/** The organization's settings, as the file writes them (ids, not keys). */
export interface LSettings {
  title: string;
  emailDomains: string[];
  hostname?: string;
  defaultRole: Role | null;
  /** Site id. */
  defaultSite?: string;
  logo?: string;
  sso: boolean;
  ai: boolean;
  inviteLinks: boolean;
  mergeRules: OrganizationMergeRules;
}

export interface Live {
  organization: string;
  /** The kinds that were read. */
  kinds: Set<ReadKind>;
  collections: LCollection[];
  spaces: LSpace[];
  sites: LSite[];
  members: LMember[];
  saml: LSaml[];
  openapi: LSpec[];
  teams: LTeam[];
  /** The organization's settings (read with `organization`). */
  settings?: LSettings;
  /** The user whose token reads (a member never removes themselves). */
  me?: string;
  /**
   * The file's space ids the organization's live spaces lack (read only for those): the deleted
   * space, still restorable, or why it cannot be restored (then it is created anew).
   */
  deletedSpaces?: Map<string, LDeletedSpace | string>;
  /** The latest document of specifications the file gives by `file:` and the service has without a URL (by slug, lower case). */
  openapiDocuments?: Map<string, unknown>;
}

/** A space in the trash, restorable until `restorableUntil`. */
export interface LDeletedSpace {
  space: LSpace;
  deletedAt: string;
  restorableUntil: string;
}

// ---------------------------------------------------------------------------------------------

type Tree<S, G, SS> = { mode: 'siteSpaces'; siteSpaces: SS[] } | { mode: 'sections'; items: (S | G)[] };

/** A structure flattened: its sections, groups and site spaces, each in structure order. */
function walk<S extends { type: 'section'; siteSpaces: SS[] }, G extends { type: 'group'; children: (S | G)[] }, SS>(
  structure: Tree<S, G, SS>,
): { sections: S[]; groups: G[]; siteSpaces: SS[] } {
  const sections: S[] = [];
  const groups: G[] = [];
  const siteSpaces: SS[] = [];
  if (structure.mode === 'siteSpaces') return { sections, groups, siteSpaces: [...structure.siteSpaces] };
  const visit = (nodes: (S | G)[]) => {
    for (const n of nodes) {
      if (n.type === 'section') {
        sections.push(n as S);
        siteSpaces.push(...(n as S).siteSpaces);
      } else {
        groups.push(n as G);
        visit((n as G).children);
      }
    }
  };
  visit(structure.items);
  return { sections, groups, siteSpaces };
}

/** A site's live structure, flattened. */
export function walkLive(structure: LStructure): { sections: LSection[]; groups: LGroup[]; siteSpaces: LSiteSpace[] } {
  return walk<LSection, LGroup, LSiteSpace>(structure);
}

/** The same for a desired structure. */
export function walkDesired(structure: DStructure): { sections: DSection[]; groups: DGroup[]; siteSpaces: DSiteSpace[] } {
  return walk<DSection, DGroup, DSiteSpace>(structure);
}
