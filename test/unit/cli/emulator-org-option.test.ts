// `docsync emulator --org 'Title=Name:role,...'`: a further organization of the local service.
import { describe, expect, it } from 'vitest';
import { parseOrganization } from '../../../src/cli/emulator-command.js';

describe('the --org option of docsync emulator', () => {
  it('reads the title and each member with the role there', () => {
    expect(parseOrganization('Partner docs=Admin:read, Rita Reviewer:admin')).toEqual({
      title: 'Partner docs',
      members: [
        { name: 'Admin', role: 'read' },
        { name: 'Rita Reviewer', role: 'admin' },
      ],
    });
  });

  it('refuses a missing title, a missing member list, a bad role or a member without one', () => {
    for (const bad of [
      '=Admin:admin',
      'X=Admin:admin',
      'Partner docs',
      'Partner=Admin:boss',
      'Partner=Admin',
      'Partner=:read',
    ]) {
      expect(() => parseOrganization(bad), bad).toThrow('write Title=Name:role,Name:role');
    }
  });
});
