// The pure parts of sites in the local service: order and moves, defaults that fall back to the first,
// groups that give their place to their content, paths made of titles.
import { describe, expect, it } from 'vitest';
import { EmulatorHttpError } from '../../../src/emulator/emulator-http-error.js';
import { removeGroup } from '../../../src/emulator/site-edits.js';
import { placeInOrder } from '../../../src/emulator/site-order.js';
import {
  defaultSection,
  defaultSiteSpaceIn,
  nodesInOrder,
  slugOf,
  uniquePath,
} from '../../../src/emulator/site-structure.js';
import type { StoredSite, StoredSiteNode } from '../../../src/emulator/stored-sites.js';

const section = (id: string, groupId?: string): StoredSiteNode => ({
  kind: 'section',
  id,
  title: id,
  path: id,
  ...(groupId === undefined ? {} : { groupId }),
});
const group = (id: string, groupId?: string): StoredSiteNode => ({
  kind: 'group',
  id,
  title: id,
  ...(groupId === undefined ? {} : { groupId }),
});

function site(nodes: StoredSiteNode[]): StoredSite {
  return {
    id: 'site_1',
    seq: 1,
    orgId: 'org_1',
    type: 'basic',
    title: 'Site',
    visibility: 'public',
    published: false,
    createdAt: '2025-01-01T00:00:00.000Z',
    updatedAt: '2025-01-01T00:00:00.000Z',
    adaptiveContent: false,
    agentsContext: 'included',
    nodes,
    siteSpaces: [],
  };
}

const ids = (nodes: readonly StoredSiteNode[]) => nodes.map((node) => node.id);

describe('placeInOrder', () => {
  const same = (a: string, b: string) => a[0] === b[0];

  it('puts an item before or after its anchor, or last', () => {
    const list = ['a1', 'a2', 'a3'];
    placeInOrder(list, 'a3', { before: 'a1' }, same);
    expect(list).toEqual(['a3', 'a1', 'a2']);
    placeInOrder(list, 'a3', { after: 'a1' }, same);
    expect(list).toEqual(['a1', 'a3', 'a2']);
    placeInOrder(list, 'a1', {}, same);
    expect(list).toEqual(['a3', 'a2', 'a1']);
  });

  it('takes both anchors only when they are neighbours among their siblings, and leaves the list as it was otherwise', () => {
    const list = ['a1', 'b1', 'a2', 'a3'];
    placeInOrder(list, 'a3', { after: 'a1', before: 'a2' }, same);
    expect(list).toEqual(['a1', 'b1', 'a3', 'a2']);
    expect(() => placeInOrder(list, 'a1', { after: 'a2', before: 'a3' }, same)).toThrow(EmulatorHttpError);
    expect(() => placeInOrder(list, 'a1', { before: 'a1' }, same)).toThrow(/itself/);
    expect(list).toEqual(['a1', 'b1', 'a3', 'a2']);
  });
});

describe('the structure of a site', () => {
  it('lists sections and groups depth first, each group followed by its content', () => {
    const s = site([section('s1', 'g1'), group('g1'), section('s2'), group('g2', 'g1'), section('s3', 'g2')]);
    expect(ids(nodesInOrder(s))).toEqual(['g1', 's1', 'g2', 's3', 's2']);
    expect(defaultSection(s)?.id).toBe('s1');
    s.defaultSectionId = 's2';
    expect(defaultSection(s)?.id).toBe('s2');
    s.defaultSectionId = 'gone';
    expect(defaultSection(s)?.id).toBe('s1');
  });

  it('gives a deleted group its place to its content, in order, one level up', () => {
    const s = site([section('s0'), group('g1'), section('s1', 'g1'), group('g2', 'g1'), section('s2')]);
    const g1 = s.nodes[1];
    if (g1?.kind !== 'group') throw new Error('g1 is a group');
    removeGroup(s, g1);
    expect(ids(nodesInOrder(s))).toEqual(['s0', 's1', 'g2', 's2']);
    expect(s.nodes.every((node) => node.groupId === undefined)).toBe(true);
  });

  it('falls back to the first site space of a section when its default is gone', () => {
    const s = site([section('s1')]);
    s.siteSpaces = [
      { id: 'ss1', spaceId: 'spc_1', path: 'one', sectionId: 's1' },
      { id: 'ss2', spaceId: 'spc_2', path: 'two', sectionId: 's1' },
    ];
    expect(defaultSiteSpaceIn(s, 's1')?.id).toBe('ss1');
    const [s1] = s.nodes;
    if (s1?.kind === 'section') s1.defaultSiteSpaceId = 'ss2';
    expect(defaultSiteSpaceIn(s, 's1')?.id).toBe('ss2');
    s.siteSpaces.pop();
    expect(defaultSiteSpaceIn(s, 's1')?.id).toBe('ss1');
  });
});

describe('paths', () => {
  it('are made of titles, and made unique with a number within 100 characters', () => {
    expect(slugOf('Release 2.1 — Notes', 'space')).toBe('release-2-1-notes');
    expect(slugOf('✨', 'space')).toBe('space');
    expect(uniquePath('api', ['api', 'api-2'])).toBe('api-3');
    const long = 'x'.repeat(100);
    expect(uniquePath(long, [long])).toBe(`${'x'.repeat(98)}-2`);
  });
});
