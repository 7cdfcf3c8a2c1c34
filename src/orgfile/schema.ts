/**
 * The organization file (docs/org-as-code.md): the organization's structure as data, one zod
 * definition built from the contract's own pieces (titles, enums, limits), so that a value the file
 * accepts is one the API accepts. The JSON Schema of `docsctl orgs schema` is generated from it.
 *
 * Items have a `key` (from the title when left out), unique within their kind (sections, groups and
 * site spaces: within their site), and refer to each other by key. `id` is the service's, written by
 * export so that a renamed item is updated rather than replaced; a file without ids matches items by
 * key, then by title. Fields left out are not managed: apply leaves them as they are.
 */
import { z } from 'zod';
import { collectionDescription, collectionTitle } from '../contract/collections.js';
import { MEMBER_ROLES } from '../contract/members.js';
import { DefaultLevel, ROLES } from '../contract/op.js';
import { OrganizationMergeRules, orgTitle, uri, UpdateOrganizationBody } from '../contract/orgs.js';
import { teamTitle } from '../contract/teams.js';
import { samlCertificate, samlEntityId, samlLabel } from '../contract/saml.js';
import { SPEC_VISIBILITIES, specSlug } from '../contract/openapi.js';
import {
  AdaptiveJsonSchema,
  AGENTS_CONTEXTS,
  condition,
  groupTitle,
  iconName,
  sectionDescription,
  sectionTitle,
  siteBasename,
  sitePath,
  SITE_TYPES,
  SITE_VISIBILITIES,
  siteTitle,
} from '../contract/sites.js';
import { EDIT_MODES, LANGUAGES, MergeRules, spaceEmoji, spaceTitle, VISIBILITIES } from '../contract/spaces.js';

export const FILE_VERSION = 1;

/** A key: letters, digits, `-`, `_` and `.`, starting with a letter or digit, at most 100 characters. */
const KEY_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/;
const key = z
  .string()
  .regex(KEY_PATTERN, { error: 'must be a key: letters, digits, ".", "_" and "-", starting with a letter or a digit, at most 100 characters' });
const keyField = key.optional().describe('Stable name of the item in this file (default: from its title); unique within its kind');
const idField = z.string().min(1).optional().describe('The service’s id (written by export): with it a rename is an update');
const ref = (what: string) => key.describe(`Key of ${what}`);

/** A role, or `guest` for none (the API's null). */
const roleOrGuest = z.enum(MEMBER_ROLES);

/**
 * One grant of an item's `access:` (docs/org-as-code.md, "Access"): a role on this space, collection
 * or site, given to a member (by member key) or a team (by team key).
 */
const FileGrant = z
  .strictObject({
    user: ref('a member (members[].key, or as export names the organization’s)').optional(),
    team: ref('a team (teams[].key, or as export names the organization’s)').optional(),
    role: z.enum(ROLES).describe('The role given'),
  })
  .refine((g) => (g.user === undefined) !== (g.team === undefined), {
    message: 'a grant names a user or a team, not both: {user: MEMBER_KEY, role: ROLE} or {team: TEAM_KEY, role: ROLE}',
  });
export type FileGrantT = z.output<typeof FileGrant>;
const accessField = z
  .array(FileGrant)
  .optional()
  .describe(
    'Who is given a role on it, each `{user: MEMBER_KEY, role}` or `{team: TEAM_KEY, role}`; left out: its grants are not managed; --prune takes away the grants not listed',
  );

const FileCollection = z
  .strictObject({
    key: keyField,
    id: idField,
    title: collectionTitle.min(1),
    description: collectionDescription.optional(),
    defaultLevel: DefaultLevel.optional(),
    parent: ref('the collection it is in (none: the organization’s root)').nullable().optional(),
    access: accessField,
  })
  .describe('A collection');

const FileSpace = z
  .strictObject({
    key: keyField,
    id: idField,
    title: spaceTitle.min(1),
    emoji: spaceEmoji.optional(),
    parent: ref('the collection it is in (none: the organization’s root)').nullable().optional(),
    visibility: z
      .enum(VISIBILITIES)
      .optional()
      .describe('Read only: the API cannot set a space’s visibility; plan reports a difference, apply does not change it'),
    editMode: z.enum(EDIT_MODES).optional(),
    defaultLevel: DefaultLevel.optional(),
    language: z.enum(LANGUAGES).optional(),
    mergeRules: MergeRules.optional().describe('The space’s merge rules; `users` are member keys'),
    access: accessField,
  })
  .describe('A space (its content is not part of the file)');

const FileSiteSpace = z
  .strictObject({
    key: keyField.describe('Stable name within its site (default: the key of its space)'),
    id: idField,
    space: ref('the space it shows'),
    path: sitePath.optional(),
    condition: condition.nullable().optional(),
    hidden: z.boolean().optional(),
    default: z.boolean().optional().describe('The default site space of its section (or of its site without sections)'),
  })
  .describe('A space as a site shows it');

export interface FileSection {
  key?: string;
  id?: string;
  group?: false;
  title: string;
  path?: string;
  icon?: string | null;
  description?: string | null;
  condition?: string | null;
  default?: boolean;
  siteSpaces: z.input<typeof FileSiteSpace>[];
}
export interface FileGroup {
  key?: string;
  id?: string;
  group: true;
  title: string;
  icon?: string | null;
  sections: (FileSection | FileGroup)[];
}

export const FileSection = z
  .strictObject({
    key: keyField.describe('Stable name within its site (default: from its title)'),
    id: idField,
    group: z.literal(false).optional(),
    title: sectionTitle,
    path: sitePath.optional(),
    icon: iconName.nullable().optional(),
    description: sectionDescription.nullable().optional(),
    condition: condition.nullable().optional(),
    default: z.boolean().optional().describe('The site’s default section'),
    siteSpaces: z.array(FileSiteSpace).min(1).describe('Its site spaces, in order (a section has at least one)'),
  })
  .describe('A site section');

export const FileGroup: z.ZodType<FileGroup> = z
  .strictObject({
    key: keyField.describe('Stable name within its site (default: from its title)'),
    id: idField,
    group: z.literal(true).describe('Marks a section group'),
    title: groupTitle,
    icon: iconName.nullable().optional(),
    get sections() {
      return z.array(FileSectionOrGroup).describe('Its sections and nested groups, in order');
    },
  })
  .describe('A section group');

const FileSectionOrGroup: z.ZodType<FileSection | FileGroup> = z.discriminatedUnion('group', [FileSection, FileGroup as unknown as z.ZodObject]) as never;

const FileSite = z
  .strictObject({
    key: keyField,
    id: idField,
    title: siteTitle,
    type: z.enum(SITE_TYPES).optional().describe('Set when the site is created; the API cannot change it afterwards'),
    visibility: z.enum(SITE_VISIBILITIES).optional(),
    published: z.boolean().optional(),
    basename: siteBasename.optional(),
    defaultLevel: DefaultLevel.optional(),
    adaptiveContent: z.boolean().optional(),
    agentsContext: z.enum(AGENTS_CONTEXTS).optional(),
    adaptiveSchema: AdaptiveJsonSchema.optional().describe('The claims of adaptive-content visitors (JSON Schema draft-07)'),
    siteSpaces: z.array(FileSiteSpace).optional().describe('The site spaces of a site without sections, in order'),
    sections: z.array(FileSectionOrGroup).optional().describe('Sections and section groups, in order'),
    access: accessField,
  })
  .describe('A site');

/**
 * A certificate: inline (PEM or its base64 body, or `${env:NAME}`: the only field that takes a value
 * from the environment), or a file in this file's folder. Checked to be one X.509 certificate.
 */
const FileCertificate = z.union([
  samlCertificate.describe('One X.509 certificate, PEM or its base64 body; or ${env:NAME}, its whole value from the environment'),
  z.strictObject({ file: z.string().min(1).describe('Path of a PEM file holding the certificate alone, relative to this file, in its folder or below') }),
]);

/**
 * The fields that take a secret, and so `${env:NAME}` (docs/org-as-code.md, "Values from the
 * environment"): only a SAML provider's certificate. `*` stands for an index.
 */
const SECRET_FIELDS: readonly (readonly string[])[] = [['saml', '*', 'certificate']];

/** Whether the value at `path` is a field that takes a secret. */
export function isSecretField(path: readonly (string | number)[]): boolean {
  return SECRET_FIELDS.some((f) => f.length === path.length && f.every((step, i) => (step === '*' ? typeof path[i] === 'number' : step === path[i])));
}

const FileSaml = z
  .strictObject({
    key: keyField.describe('Stable name of the provider in this file (default: from its label)'),
    id: idField,
    label: samlLabel,
    entityID: samlEntityId.optional(),
    ssoURL: uri(2048).optional(),
    certificate: FileCertificate.optional().describe('The identity provider’s X.509 certificate, alone; left out: not managed. Takes ${env:NAME}'),
    defaultRole: roleOrGuest.optional(),
    defaultTeam: ref('a team of the organization (from its title)').nullable().optional(),
  })
  .describe('A SAML single sign-on provider');

const FileMember = z
  .strictObject({
    key: keyField.describe('Stable name of the member in this file (default: from the name, else the user id)'),
    id: z.string().min(1).describe('The user’s id'),
    name: z.string().optional().describe('Informative (not applied): the user’s display name'),
    email: z.string().optional().describe('Informative (not applied): the user’s email'),
    role: roleOrGuest.describe('The member’s role in the organization (`guest`: none)'),
  })
  .describe('A member of the organization (members join by invitation: the file sets their role)');

const FileTeam = z
  .strictObject({
    key: keyField,
    id: idField,
    title: teamTitle,
    members: z
      .array(ref('a member (members[].key, or as export names the organization’s)'))
      .optional()
      .describe('Its members (team role member), by member key; with owners: the whole team (left both out: its members are not managed)'),
    owners: z
      .array(ref('a member (members[].key, or as export names the organization’s)'))
      .optional()
      .describe('Its owners (team role owner: they manage its membership), by member key'),
  })
  .describe('A team of the organization, with its members');

/**
 * The organization's own settings (what `docsctl orgs update` sets): a field left out is not
 * managed. `id` is informative, as the plain `organization: ID` of older files.
 */
export const FileSettings = z
  .strictObject({
    id: z.string().min(1).optional().describe('Informative: the id of the organization it was exported from'),
    title: orgTitle.optional(),
    emailDomains: z.array(z.string()).optional().describe('Its email domains (compared as a set)'),
    hostname: UpdateOrganizationBody.shape.hostname,
    defaultRole: roleOrGuest.optional().describe('The role new members get (`guest`: none)'),
    defaultSite: ref('the site visitors land on (null: none)').nullable().optional(),
    logo: uri(2048).nullable().optional().describe('The logo’s URL (null: none)'),
    sso: z.boolean().optional().describe('Single sign-on enforced (needs an active SAML provider)'),
    ai: z.boolean().optional(),
    inviteLinks: z.boolean().optional(),
    mergeRules: OrganizationMergeRules.optional().describe('The merge rules of every space whose own are inherit; `users` are member keys'),
  })
  .describe('The organization’s settings: a field left out is not managed');
export type FileSettingsT = z.output<typeof FileSettings>;

const FileOpenApi = z
  .strictObject({
    slug: specSlug.describe('The specification’s slug: its key'),
    url: uri(2048).optional().describe('Where the service fetches it from'),
    file: z
      .string()
      .min(1)
      .optional()
      .describe('Instead of url: its document (YAML or JSON), a file relative to this file, in its folder or below, sent as the specification’s text'),
    visibility: z.enum(SPEC_VISIBILITIES).optional(),
  })
  .describe('An OpenAPI specification');

/** The kinds whose items a `moved:` note may rename (members are matched by user id, specifications by slug). */
const MOVABLE_KINDS = ['collections', 'spaces', 'sites', 'saml'] as const;
export type MovableKind = (typeof MOVABLE_KINDS)[number];

const FileMoved = z
  .strictObject({
    kind: z.enum(MOVABLE_KINDS).describe('The kind of the item'),
    from: key.describe('The key the item had (as the service’s item gets it from its title, or as this file had it)'),
    to: key.describe('Its key in this file now'),
  })
  .describe('A renamed key, as Terraform’s moved block: the item with key `to` is the one that had key `from` (a rename, not a deletion and a creation)');

/** The kinds a file may declare, in the order they are applied. */
export const KINDS = ['collections', 'spaces', 'sites', 'teams', 'members', 'saml', 'openapi'] as const;
export type Kind = (typeof KINDS)[number];

/**
 * What a file owns (docs/org-as-code.md, "Several files, and owning part of an organization"):
 * what `--prune` may delete on its behalf. Left out, a file owns every item of the kinds it
 * declares (as a single file always did); given, only what it lists.
 */
const FileOwns = z
  .strictObject({
    kinds: z
      .array(z.enum(KINDS))
      .optional()
      .describe('Kinds this file owns whole (each must be a kind it declares): --prune deletes any item of them that no file has'),
    collections: z
      .array(key)
      .optional()
      .describe(
        'Collection subtrees this file owns, by key (of the files, else as export names the organization’s) or id: --prune deletes the collections and spaces inside them that no file has (of the kinds this file declares), never the collection itself',
      ),
    sites: z
      .array(key)
      .optional()
      .describe('Sites this file owns, by key (of the files, else as export names the organization’s) or id: --prune deletes those of them that no file has'),
  })
  .describe('What this file owns: what --prune may delete on its behalf. Left out: every item of the kinds the file declares');

export type FileOwnsT = z.output<typeof FileOwns>;

/** The schema of one item of each kind (a file's lists are checked item by item). */
export const ITEM_SCHEMAS = {
  collections: FileCollection,
  spaces: FileSpace,
  sites: FileSite,
  teams: FileTeam,
  members: FileMember,
  saml: FileSaml,
  openapi: FileOpenApi,
} as const;

const OrgFile = z
  .strictObject({
    $schema: z.string().optional(),
    version: z.literal(FILE_VERSION).describe('The version of this file’s format'),
    organization: z
      .union([z.string().min(1).describe('Informative: the id of the organization it was exported from'), FileSettings])
      .optional()
      .describe('The organization: its id (informative), or its settings (`{id, title, defaultRole, …}`: the fields given are managed)'),
    collections: z.array(FileCollection).optional(),
    spaces: z.array(FileSpace).optional(),
    sites: z.array(FileSite).optional(),
    teams: z.array(FileTeam).optional(),
    members: z.array(FileMember).optional(),
    saml: z.array(FileSaml).optional(),
    openapi: z.array(FileOpenApi).optional(),
    moved: z.array(FileMoved).optional().describe('Renamed keys of items without an id (docs/org-as-code.md, "Renaming a key")'),
    owns: FileOwns.optional(),
  })
  .describe('An organization of the documentation service, as code (docsctl orgs export / plan / apply)');

export type OrgFileData = z.output<typeof OrgFile>;
export type FileSiteSpaceT = z.output<typeof FileSiteSpace>;

/**
 * A file's top level with its lists taken as they are: the lists are checked item by item
 * (ITEM_SCHEMAS), so that one bad item does not hide the problems of the others.
 */
export const OrgFileTop = OrgFile.extend({
  ...(Object.fromEntries(KINDS.map((k) => [k, z.array(z.unknown()).optional()])) as Record<Kind, z.ZodOptional<z.ZodArray<z.ZodUnknown>>>),
  organization: z
    .union([z.string().min(1), z.record(z.string(), z.unknown())], { error: 'must be the organization’s id, or its settings ({title, defaultRole, …})' })
    .optional(),
});

/** The file's JSON Schema (draft 2020-12), for editors and `docsctl orgs schema`. */
export function orgFileJsonSchema(): Record<string, unknown> {
  const schema = z.toJSONSchema(OrgFile, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
  return {
    $schema: schema.$schema,
    title: 'docsctl organization file',
    ...Object.fromEntries(Object.entries(schema).filter(([k]) => k !== '$schema')),
  };
}
