import { describe, expect, it } from 'vitest';
import { type LinkTargets, resolveLink } from '../../../../src/emulator/links/resolve-link.js';

const targets: LinkTargets = {
  pageIdByPath: new Map([
    ['README.md', 'pg_root'],
    ['guides/README.md', 'pg_guides'],
    ['guides/install.md', 'pg_install'],
    ['my notes.md', 'pg_notes'],
  ]),
  fileIdByPath: new Map([['guides/assets/logo.png', 'fl_logo']]),
  appOrigin: 'http://127.0.0.1:4010',
};
const install = { id: 'pg_install', path: 'guides/install.md' };

describe('resolveLink', () => {
  it('resolves relative links from the page folder to pages and files', () => {
    expect(resolveLink('assets/logo.png', install, targets)).toEqual({
      status: 'ok',
      target: { kind: 'file', file: 'fl_logo' },
    });
    expect(resolveLink('../README.md', install, targets)).toEqual({
      status: 'ok',
      target: { kind: 'page', page: 'pg_root' },
    });
  });

  it('resolves a leading / from the docs root, and drops anchors and queries', () => {
    expect(resolveLink('/guides/install.md#step-2', { id: 'pg_root', path: 'README.md' }, targets)).toEqual({
      status: 'ok',
      target: { kind: 'page', page: 'pg_install' },
    });
    expect(resolveLink('install.md?tab=1', install, targets).target).toEqual({
      kind: 'page',
      page: 'pg_install',
    });
  });

  it('takes an anchor alone as the page itself', () => {
    expect(resolveLink('#usage', install, targets)).toEqual({
      status: 'ok',
      target: { kind: 'page', page: 'pg_install' },
    });
  });

  it('percent-decodes the path, and keeps a % that starts no escape', () => {
    expect(resolveLink('../my%20notes.md', install, targets).target).toEqual({
      kind: 'page',
      page: 'pg_notes',
    });
    expect(resolveLink('100%.md', install, targets)).toEqual({
      status: 'broken',
      target: { kind: 'url', url: '100%.md' },
    });
  });

  it("takes a folder as its README, the root's too", () => {
    expect(resolveLink('../guides/', install, targets).target).toEqual({ kind: 'page', page: 'pg_guides' });
    expect(resolveLink('.', install, targets).target).toEqual({ kind: 'page', page: 'pg_guides' });
    expect(resolveLink('..', install, targets).target).toEqual({ kind: 'page', page: 'pg_root' });
  });

  it('names the address as written when the target is missing or outside the docs root', () => {
    for (const href of ['missing.md', '../../outside.md', 'assets/', 'Install.md']) {
      expect(resolveLink(href, install, targets)).toEqual({
        status: 'broken',
        target: { kind: 'url', url: href },
      });
    }
  });

  it('marks addresses of the app in-app and leaves other addresses ok, unfetched', () => {
    expect(resolveLink('http://127.0.0.1:4010/s/x', install, targets).status).toBe('in-app');
    expect(resolveLink('https://example.com/x', install, targets)).toEqual({
      status: 'ok',
      target: { kind: 'url', url: 'https://example.com/x' },
    });
    expect(resolveLink('//cdn.example.com/x.js', install, targets).target).toEqual({
      kind: 'url',
      url: 'https://cdn.example.com/x.js',
    });
    expect(resolveLink('mailto:docs@example.com', install, targets).status).toBe('ok');
  });

  it('takes an http address naming no host as broken', () => {
    expect(resolveLink('http://', install, targets).status).toBe('broken');
  });
});
