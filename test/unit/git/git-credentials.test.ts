import { describe, expect, it } from 'vitest';
import { credentialHelperEnvironment } from '../../../src/git/git-credentials.js';

describe('credentialHelperEnvironment', () => {
  it('clears the helpers configured so far and installs its own for the remote host alone', () => {
    const env = credentialHelperEnvironment(
      'https://git.example.com:8443/team/docs.git',
      'x-access-token',
      's3cret',
      {},
    );

    expect(env).toMatchObject({
      GIT_CONFIG_COUNT: '2',
      GIT_CONFIG_KEY_0: 'credential.helper',
      GIT_CONFIG_VALUE_0: '',
      GIT_CONFIG_KEY_1: 'credential.https://git.example.com:8443.helper',
      DOCSYNC_GIT_USERNAME: 'x-access-token',
      DOCSYNC_GIT_PASSWORD: 's3cret',
    });
    // The helper's text names the variables; the secret is only in the variable.
    expect(env.GIT_CONFIG_VALUE_1).not.toContain('s3cret');
    expect(env.GIT_CONFIG_VALUE_1).toContain('$DOCSYNC_GIT_PASSWORD');
  });

  it("appends after the operator's own GIT_CONFIG_COUNT entries, which stay as they were", () => {
    const base = {
      GIT_CONFIG_COUNT: '2',
      GIT_CONFIG_KEY_0: 'http.proxy',
      GIT_CONFIG_VALUE_0: 'http://proxy:3128',
      GIT_CONFIG_KEY_1: 'http.sslCAInfo',
      GIT_CONFIG_VALUE_1: '/etc/ca.pem',
    };

    const env = credentialHelperEnvironment('https://github.com/o/r.git', 'x-access-token', 't', base);

    expect(env.GIT_CONFIG_COUNT).toBe('4');
    expect(env.GIT_CONFIG_KEY_2).toBe('credential.helper');
    expect(env.GIT_CONFIG_KEY_3).toBe('credential.https://github.com.helper');
    expect(Object.keys(env).filter((name) => /_[01]$/.test(name))).toEqual([]);
  });

  it('starts at 0 when GIT_CONFIG_COUNT is not a count', () => {
    const env = credentialHelperEnvironment('https://github.com/o/r.git', 'u', 't', {
      GIT_CONFIG_COUNT: 'x',
    });

    expect(env.GIT_CONFIG_COUNT).toBe('2');
    expect(env.GIT_CONFIG_KEY_0).toBe('credential.helper');
  });
});
