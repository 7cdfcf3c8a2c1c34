/** export --update and moved: notes, without the service: matching with notes, what is kept, the text written. */
import { describe, expect, it } from 'vitest';
import type { Live } from '../../src/orgfile/model.js';
import { withMoved } from '../../src/orgfile/moved.js';
import { buildPlan } from '../../src/orgfile/plan.js';
import { parseOrgFile } from '../../src/orgfile/source.js';
import { checkForUpdate, updateFile } from '../../src/orgfile/update.js';

function live(spaces: { id: string; title: string }[]): Live {
  return {
    organization: 'org',
    kinds: new Set(['spaces']),
    collections: [],
    spaces: spaces.map((s) => ({ ...s, emoji: '', visibility: 'private', defaultLevel: 'inherit', mergeRules: { type: 'inherit' } })),
    sites: [],
    members: [],
    saml: [],
    openapi: [],
    teams: [],
  } as unknown as Live;
}

describe('moved: notes', () => {
  it('withMoved gives the old key’s item the new key, and takes it from an item that had it from its title', () => {
    const keys = new Map([
      ['a', 'getting-started'],
      ['b', 'start-here'],
      ['c', 'other'],
    ]);
    const moved = withMoved(keys, new Map([['start-here', 'getting-started']]));
    expect(moved.get('a')).toBe('start-here');
    expect(moved.get('b')).not.toBe('start-here');
    expect(moved.get('c')).toBe('other');
    // No note, or a note whose old key the service has not: the same keys.
    expect(withMoved(keys, undefined)).toBe(keys);
    expect(withMoved(keys, new Map([['x', 'nothing']]))).toEqual(keys);
  });

  it('plan: a note beats the title of another item; without the note that item is matched by title', () => {
    // The service has "Getting started" and (new, made in the app) "Start here"; the file renamed the first.
    const org = live([
      { id: 'a', title: 'Getting started' },
      { id: 'b', title: 'Start here' },
    ]);
    const file = 'version: 1\nspaces:\n  - key: start-here\n    title: Start here\n';
    const note = `${file}moved:\n  - { kind: spaces, from: getting-started, to: start-here }\n`;
    const withNote = buildPlan(parseOrgFile(note, 'o.yaml'), org, { prune: true });
    expect(withNote.changes.map((c) => `${c.action} ${c.key} ${c.id ?? ''}`)).toEqual(['update start-here a', 'delete start-here b']);
    const without = buildPlan(parseOrgFile(file, 'o.yaml'), org, { prune: true });
    expect(without.changes.map((c) => `${c.action} ${c.key} ${c.id ?? ''}`)).toEqual(['delete getting-started a']);
  });
});

describe('export --update', () => {
  it('keeps a JSON file JSON, and a certificate of a flow map as it is', () => {
    const json = '{\n  "version": 1,\n  "spaces": [{ "title": "Old", "id": "a" }]\n}\n';
    const org = live([{ id: 'a', title: 'New' }]);
    const out = updateFile(json, checkForUpdate(json, 'o.json'), org);
    expect(JSON.parse(out.text)).toEqual({ version: 1, spaces: [{ key: 'old', title: 'New', id: 'a' }] });
    expect(out.changed).toEqual(['space old: key (written: its title changed), title']);
    const same = updateFile(out.text, checkForUpdate(out.text, 'o.json'), org);
    expect(same.text).toBe(out.text);
  });

  it('an empty flow list that gets items becomes a block list', () => {
    const text = 'version: 1\nspaces: []\n';
    const out = updateFile(text, checkForUpdate(text, 'o.yaml'), live([{ id: 'a', title: 'New' }]));
    expect(out.text).toMatch(/^version: 1\nspaces:\n {2}- key: new\n {4}id: a\n {4}title: New\n/);
    expect(out.added).toEqual(['space new']);
  });

  it('a ${env:} certificate needs no variable to update; its place is kept for the messages of a bad file', () => {
    const text = 'version: 1\nsaml:\n  - label: Okta\n    certificate: ${env:OKTA_CERT}\n    colour: red\n';
    expect(() => checkForUpdate(text, 'o.yaml')).toThrow(/o\.yaml:5:5: saml\[0\]\.colour: unknown field "colour"/);
    expect(checkForUpdate(text.replace('    colour: red\n', ''), 'o.yaml').saml[0]).toMatchObject({ key: 'okta', label: 'Okta' });
    // In a flow map it is not blanked: the variable is needed, as plan needs it.
    expect(() => checkForUpdate('version: 1\nsaml:\n  - { label: Okta, certificate: "${env:OKTA_CERT}" }\n', 'o.yaml')).toThrow(/OKTA_CERT is not set/);
  });
});

describe('export --update of a site', () => {
  it('a section without a key whose title changed gets its key written; a ${env:} certificate the service lacks stays', () => {
    const text = [
      'version: 1',
      'sites:',
      '  - title: Docs',
      '    id: s1',
      '    sections:',
      '      - title: Guides',
      '        id: sec1',
      '        siteSpaces:',
      '          - space: a',
      '            id: ss1',
      'saml:',
      '  - label: Okta',
      '    id: p1',
      '    certificate: ${env:OKTA_CERT}',
      '',
    ].join('\n');
    const org = {
      ...live([{ id: 'sp', title: 'A' }]),
      kinds: new Set(['spaces', 'sites', 'saml']),
      sites: [
        {
          id: 's1',
          title: 'Docs',
          type: 'basic',
          visibility: 'public',
          published: true,
          defaultLevel: null,
          adaptiveContent: false,
          structure: {
            mode: 'sections',
            items: [
              {
                type: 'section',
                id: 'sec1',
                title: 'Tutorials',
                path: 'guides',
                default: true,
                siteSpaces: [{ id: 'ss1', space: 'sp', path: 'a', hidden: false, default: true }],
              },
            ],
          },
        },
      ],
      saml: [{ id: 'p1', label: 'Okta', entityID: '', ssoURL: 'about:blank', certificate: '', defaultRole: null }],
    } as unknown as Live;
    const out = updateFile(text, checkForUpdate(text, 'o.yaml'), org);
    expect(out.text).toContain('      - key: guides\n        title: Tutorials\n        id: sec1\n');
    expect(out.text).toContain('    certificate: ${env:OKTA_CERT}\n');
    expect(checkForUpdate(out.text, 'o.yaml').sites[0].structure).toMatchObject({ items: [{ key: 'guides', title: 'Tutorials' }] });
  });
});
