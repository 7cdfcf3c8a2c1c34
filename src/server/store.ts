/**
 * The sandbox's state: plain records in Maps, the injectable clock, and the seed it resets to.
 * A synchronous handler (most are) reads and writes it with no other request running in between, so
 * its changes are atomic. An async one (imports, merges, comments, link lists: Markdown read in the
 * worker, loops in slices, src/server/slices.ts) lets other requests run wherever it awaits: it works
 * on what cannot change meanwhile (immutable content) or looks again after. With `serve --data` its
 * changes are saved when it ends, what it touched watched until then (persist/journal.ts).
 * Everything under `data` is exported and loaded as a whole by `/_sandbox/state`.
 */
import { refId, type DefaultLevel, type Role } from '../contract/op.js';
import { RETENTION_DAYS, type MergeRules } from '../contract/spaces.js';
import { Clock } from './clock.js';
import { Derived } from './derived.js';
import { HttpError } from './errors.js';
import { moveItem } from './order.js';
import { DEFAULT_FETCH_POLICY, type FetchPolicy } from './lib/fetch.js';
import { encode, escapeKey, revive } from './persist/codec.js';
import { rawEntries } from './persist/raw.js';
import { sha256 } from './lib/sha256.js';

export interface UserRec {
  id: string;
  displayName: string;
  email: string;
  photoURL?: string;
  token: string;
}
export interface OrgRec {
  id: string;
  title: string;
  createdAt: string;
  emailDomains: string[];
}
export interface MemberRec {
  userId: string;
  role: Role | null;
  joinedAt: string;
  lastSeenAt?: string;
  sso: boolean;
  disabled: boolean;
}
export interface TeamRec {
  id: string;
  org: string;
  title: string;
  createdAt: string;
  /** user id → team role */
  members: Map<string, 'owner' | 'member'>;
}
export interface CollectionRec {
  id: string;
  org: string;
  title: string;
  description?: string;
  parent?: string;
  defaultLevel: DefaultLevel;
  createdAt: string;
}
export interface SpaceRec {
  id: string;
  org: string;
  title: string;
  /** '' when the space has no emoji (it may have an icon instead). */
  emoji: string;
  /** An image URL shown instead of an emoji. */
  icon?: string;
  visibility: 'public' | 'unlisted' | 'share-link' | 'visitor-auth' | 'in-collection' | 'private';
  createdAt: string;
  updatedAt: string;
  deletedAt?: string;
  editMode: 'live' | 'locked';
  mergeRules: MergeRules;
  parent?: string;
  language?: string;
  revision: string;
  defaultLevel: DefaultLevel;
  shareKey: string;
}
/** A revision of a space's content. The content model is extended by the content family. */
export interface RevisionRec {
  id: string;
  space: string;
  parents: string[];
  createdAt: string;
  type: 'edits';
  /** Content payload, owned by the content family (pages, files, variables...). */
  content: unknown;
}

export interface StoreData {
  users: Map<string, UserRec>;
  orgs: Map<string, OrgRec>;
  /** organization id → user id → membership */
  members: Map<string, Map<string, MemberRec>>;
  teams: Map<string, TeamRec>;
  collections: Map<string, CollectionRec>;
  spaces: Map<string, SpaceRec>;
  /** Ordered children of each container (an organization's root or a collection): collection and space ids. */
  children: Map<string, string[]>;
  revisions: Map<string, RevisionRec>;
  /** Deleted spaces waiting for purge: space id → deletion time (ms). */
  trash: Map<string, number>;
  /** State of the other families, each under its own key (see `Store.slice`). */
  slices: Map<string, unknown>;
  /** The user whose token may call `/_sandbox/*`. */
  sandboxAdmin: string;
}

/**
 * The state's own Maps, in the order of `StoreData` (the order a state is exported in), declared
 * once: `emptyData()` makes them (the compiler checks that they are all of StoreData's Maps but
 * `slices`), an imported state must have them, and each is a table of the same name when the
 * state is saved (persist/journal.ts). `slices` holds the families' Maps; `sandboxAdmin` is a value.
 */
export const TOP_TABLES = ['users', 'orgs', 'members', 'teams', 'collections', 'spaces', 'children', 'revisions', 'trash'] as const;

/** How long a deleted space can be restored (the contract's RETENTION_DAYS). */
export const RETENTION_MS = RETENTION_DAYS * 24 * 3_600_000;

/** A file served at a signed URL (downloads.ts), as a family produces it. */
interface Download {
  contentType: string;
  filename: string;
  body: Buffer;
}

/** Counters a family derives for a space it does not own (shown in the Space object). */
export interface SpaceCounters {
  comments: number;
  changeRequests: number;
  changeRequestsOpen: number;
  changeRequestsDraft: number;
}

/**
 * What a family does beside answering its operations: what the store and the other families ask of
 * it (family.ts declares families; the store is given them, routes.ts).
 */
export interface FamilyHooks {
  counters?: {
    space?: (store: Store, spaceId: string) => Partial<SpaceCounters>;
    /** Counters of a change request (its opened comments). */
    changeRequest?: (store: Store, cr: { id: string; space: string }) => { comments?: number };
  };
  /** A space is purged for good: drop what belongs to it. */
  onSpacePurged?: (store: Store, spaceId: string) => void;
  /** A team was deleted (teams/model.ts): drop what was given to it (grants). */
  onTeamDeleted?: (store: Store, teamId: string) => void;
  /**
   * A user joined with an invite link to a space or a collection (invites/model.ts): give them
   * `level` on it (grants), as a direct invitation would. Whether that changed anything.
   */
  onContentInviteJoined?: (
    store: Store,
    invite: { org: string; user: string; target: { type: 'space' | 'collection'; id: string }; level: Role | null },
  ) => boolean;
  /** A whole state was loaded (`importState`): resume background work. */
  onStateImport?: (store: Store) => void;
  /** Files served at signed URLs (downloads.ts), by kind: produce the file from the claims, or throw `notFound`. */
  downloads?: Record<string, (store: Store, claims: Record<string, string>) => Download | Promise<Download>>;
}

/**
 * What the store tells the journal that saves its changes (`serve --data`: persist/journal.ts, which
 * implements it). Declared here, below the journal, which reads the store.
 */
export interface StoreJournal {
  /** A new state replaced the whole state (a reset, an import): its Maps become tables, all of it written next. */
  replaced(data: StoreData): void;
  /** The Maps of the state become tables, nothing recorded (the state as it is when the journal is attached). */
  adopt(data: StoreData): void;
  /** A family made its slice (`slice`): its Maps become tables. */
  sliceMade(key: string, slice: object): void;
  /** Run background work (a purge) recording what it changes, then save it. */
  background(fn: () => void): void;
}

export class Store {
  readonly clock: Clock;
  data: StoreData;
  /** What outbound fetches (content import, OpenAPI sources) may reach, and how long they may take. Not state. */
  fetchPolicy: FetchPolicy = DEFAULT_FETCH_POLICY;
  /** sha256(token) → user id; lookups by hash keep the comparison independent of the secret. */
  private tokenIndex = new Map<string, string>();
  /**
   * Where changes are recorded to be saved (`serve --data`, persist/journal.ts): every Map of the
   * state is then one of its tables. Absent in memory (`serve --memory`), where nothing is recorded.
   */
  journal?: StoreJournal;

  /** Told when background work (not a request) changed the state, e.g. to persist it. */
  private changeListeners: (() => void)[] = [];

  onBackgroundChange(listener: () => void): void {
    this.changeListeners.push(listener);
  }

  /** Background work calls this after it changed the state outside of a request. */
  backgroundChanged(): void {
    this.changed();
    for (const l of this.changeListeners) l();
  }

  /**
   * Moves whenever the state may change: around every request that may write (app.ts), after
   * background work, a purge, a reset or an import. An answer kept for a GET is good while it has not.
   */
  version = 0;

  /** Values computed from the state (e.g. an organization's list of live spaces), dropped at every change. */
  readonly derived = new Derived();

  changed(): void {
    this.version++;
    this.derived.clear();
  }

  /** The sandbox's families (routes.ts): told of purges and imports, asked for counters and downloads. */
  constructor(
    clock = new Clock(),
    readonly families: readonly FamilyHooks[] = [],
  ) {
    this.clock = clock;
    this.data = emptyData();
  }

  /** Forget everything (before loading a seed again). */
  clear(): void {
    this.changed();
    this.data = emptyData();
    this.tokenIndex.clear();
    this.journal?.replaced(this.data);
  }

  /**
   * Save changes with `journal` from now on: the state's Maps become its tables, or the state is
   * `data` as the journal loaded it (then families resume their background work, as after an import).
   */
  attach(journal: StoreJournal, loaded?: { data: StoreData; clockOffset: number }): void {
    this.journal = journal;
    this.changed();
    if (!loaded) {
      journal.adopt(this.data);
      return;
    }
    this.data = loaded.data;
    this.clock.offset = loaded.clockOffset;
    this.reindex();
    for (const f of this.families) f.onStateImport?.(this);
  }

  /** Rebuild the token lookup from the users (after the users were put back or loaded). */
  reindex(): void {
    this.tokenIndex = new Map([...rawEntries(this.data.users)].map(([, u]) => [hashToken(u.token), u.id]));
  }

  /** Give a user another token (`serve --token` on a saved state). Throws when another user has it. */
  setToken(userId: string, token: string): void {
    const user = this.data.users.get(userId);
    if (!user) throw new Error(`no user ${userId}`);
    const holder = this.tokenIndex.get(hashToken(token));
    if (holder !== undefined && holder !== userId) throw new Error(`the token is already ${holder}'s`);
    if (user.token === token) return;
    this.tokenIndex.delete(hashToken(user.token));
    user.token = token;
    this.tokenIndex.set(hashToken(token), userId);
    this.changed();
  }

  now(): string {
    return this.clock.iso();
  }

  /** A family's own state, created on first use. */
  slice<T>(key: string, init: () => T): T {
    let s = this.data.slices.get(key) as T | undefined;
    if (s === undefined) {
      s = init();
      this.journal?.sliceMade(key, s as object);
      this.data.slices.set(key, s);
    }
    return s;
  }

  addUser(user: UserRec): void {
    this.data.users.set(user.id, user);
    this.tokenIndex.set(hashToken(user.token), user.id);
  }

  userByToken(token: string): UserRec | undefined {
    const id = this.tokenIndex.get(hashToken(token));
    return id === undefined ? undefined : this.data.users.get(id);
  }

  member(orgId: string, userId: string): MemberRec | undefined {
    return this.data.members.get(orgId)?.get(userId);
  }

  /** Take `id` out of a container's ordered children. */
  detachChild(containerId: string, id: string): void {
    const list = this.data.children.get(containerId);
    if (list)
      this.data.children.set(
        containerId,
        list.filter((x) => x !== id),
      );
  }

  /**
   * Move `id` from container `fromId` into `toId`, placed relative to sibling spaces or collections
   * (`{before?, after?}`; neither: where it is, or last when it comes from elsewhere). Checks first,
   * then changes: an anchor that is not a sibling of its type in the target, or two anchors that are
   * not neighbours, is a 400 (`where` names the target in the message); a move that changes nothing
   * a 409 (`what` names the item).
   */
  moveChild(
    id: string,
    fromId: string,
    toId: string,
    position: { before?: Record<string, unknown>; after?: Record<string, unknown> } | undefined,
    where: string,
    what: string,
  ): void {
    const current = this.data.children.get(toId) ?? [];
    const anchors: { before?: string; after?: string } = {};
    for (const side of ['before', 'after'] as const) {
      const ref = position?.[side];
      if (!ref) continue;
      const anchor = refId(ref);
      const exists = ref.type === 'collection' ? this.data.collections.has(anchor) : this.data.spaces.has(anchor);
      if (anchor === id) throw new HttpError(400, `position.${side}: a ${what} cannot be placed relative to itself`);
      if (!exists || !current.includes(anchor)) throw new HttpError(400, `position.${side}: ${ref.type} ${anchor} is not in the target ${where}`);
      anchors[side] = anchor;
    }
    if (!moveItem(id, this.childrenOf(fromId), this.childrenOf(toId), anchors, where))
      throw new HttpError(409, `the ${what} is already there: nothing would change`);
  }

  childrenOf(containerId: string): string[] {
    let list = this.data.children.get(containerId);
    if (!list) {
      list = [];
      this.data.children.set(containerId, list);
    }
    return list;
  }

  /**
   * Remove spaces deleted more than 7 days ago. Cheap: walks only the trash. With a journal, what a
   * purge changes is saved at once, also when it happens while a read is answered.
   */
  purgeExpired(): void {
    if (this.data.trash.size === 0) return;
    const cutoff = this.clock.now() - RETENTION_MS;
    const expired: string[] = [];
    for (const [spaceId, deletedAt] of rawEntries(this.data.trash)) if (deletedAt <= cutoff) expired.push(spaceId);
    if (expired.length === 0) return;
    const purge = () => {
      for (const spaceId of expired) this.purgeSpace(spaceId);
    };
    if (this.journal) this.journal.background(purge);
    else purge();
  }

  purgeSpace(spaceId: string): void {
    this.changed();
    const space = this.data.spaces.get(spaceId);
    this.data.trash.delete(spaceId);
    if (!space) return;
    for (const f of this.families) f.onSpacePurged?.(this, spaceId);
    // Read without handing the revisions out (a journal would otherwise check every one): only deleted here.
    for (const [id, rev] of rawEntries(this.data.revisions)) if (rev.space === spaceId) this.data.revisions.delete(id);
    this.data.spaces.delete(spaceId);
  }

  /**
   * The whole state as JSON text, with the clock's offset (format version 2, persist/codec.ts: Maps
   * and Sets tagged, `$` keys of user content escaped, so any value reads back exactly, at any depth).
   */
  exportState(): string {
    const parts: string[] = [];
    const data = this.data as unknown as Record<string, unknown>;
    for (const key of Object.keys(data)) {
      const value = data[key];
      if (value === undefined) continue;
      // A family's slice is made on first use, also by a request then refused: an empty one is no state.
      const text =
        key === 'slices'
          ? mapText(value as Map<unknown, unknown>, sliceText, (slice) => !isEmptySlice(slice))
          : value instanceof Map
            ? mapText(value, encode)
            : encode(value);
      parts.push(`${encode(escapeKey(key))}:${text}`);
    }
    return `{"version":2,"clockOffset":${encode(this.clock.offset)},"data":{${parts.join(',')}}}`;
  }

  /**
   * Replace the whole state from `exportState()` text (version 2, or version 1 as exported before
   * values were escaped). Throws on a malformed document, changing nothing.
   */
  importState(text: string): void {
    const parsed = JSON.parse(text) as { version?: unknown } | null;
    const version = typeof parsed === 'object' && parsed !== null ? parsed.version : undefined;
    if (version !== 1 && version !== 2) {
      throw new Error('state: expected {"version": 2, "data": {...}} as exported by GET /_sandbox/state');
    }
    const doc = revive(parsed as object, version === 1) as { clockOffset?: number; data?: StoreData };
    if (typeof doc.data !== 'object' || doc.data === null || Array.isArray(doc.data)) {
      throw new Error('state: expected {"version": 2, "data": {...}} as exported by GET /_sandbox/state');
    }
    const fresh = { ...emptyData(), ...doc.data };
    for (const key of [...TOP_TABLES, 'slices'] as const) {
      if (!(fresh[key] instanceof Map)) throw new Error(`state: data.${key} must be a map`);
    }
    for (const [key, slice] of fresh.slices) {
      if (typeof slice !== 'object' || slice === null || Array.isArray(slice)) throw new Error(`state: data.slices ${JSON.stringify(key)} must be an object`);
    }
    if (typeof fresh.sandboxAdmin !== 'string' || !fresh.users.has(fresh.sandboxAdmin)) {
      throw new Error('state: data.sandboxAdmin must name one of data.users');
    }
    this.changed();
    this.data = fresh;
    this.clock.offset = typeof doc.clockOffset === 'number' ? doc.clockOffset : 0;
    this.journal?.replaced(this.data);
    this.reindex();
    for (const f of this.families) f.onStateImport?.(this);
  }
}

/** A Map as the codec writes it, each value by `valueText`, entries `keep` leaves out skipped. */
function mapText(map: Map<unknown, unknown>, valueText: (v: unknown) => string, keep?: (v: unknown) => boolean): string {
  const items: string[] = [];
  for (const [k, v] of rawEntries(map)) if (!keep || keep(v)) items.push(`[${encode(k)},${valueText(v)}]`);
  return `{"$map":[${items.join(',')}]}`;
}

/** A family's slice: its Maps entry by entry (each record encoded alone, the fast way). */
function sliceText(slice: unknown): string {
  if (typeof slice !== 'object' || slice === null || Array.isArray(slice) || slice instanceof Map || slice instanceof Set) return encode(slice);
  const parts: string[] = [];
  for (const field of Object.keys(slice)) {
    const v = (slice as Record<string, unknown>)[field];
    if (v === undefined || typeof v === 'function' || typeof v === 'symbol') continue;
    parts.push(`${encode(escapeKey(field))}:${v instanceof Map ? mapText(v, encode) : encode(v)}`);
  }
  return `{${parts.join(',')}}`;
}

/** A slice whose every field is an empty Map, Set or array (as `slice()` makes it). */
function isEmptySlice(slice: unknown): boolean {
  if (typeof slice !== 'object' || slice === null) return false;
  return Object.values(slice).every((v) => ((v instanceof Map || v instanceof Set) && v.size === 0) || (Array.isArray(v) && v.length === 0));
}

function emptyData(): StoreData {
  const tables = Object.fromEntries(TOP_TABLES.map((name) => [name, new Map()])) as { [K in (typeof TOP_TABLES)[number]]: StoreData[K] };
  return { ...tables, slices: new Map(), sandboxAdmin: '' };
}

const hashToken = (token: string): string => sha256(token, 'base64url');
