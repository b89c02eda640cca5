// How docsync hands a remote's credentials to git without a secret on a command line, in a URL, in
// a file or in the mirror's config: variables of the child's environment only, read by a credential
// helper that git's own configuration-by-environment (GIT_CONFIG_COUNT, git 2.31+) installs for the
// remote's host alone, after clearing the operator's helpers, which would answer first.

/** Credentials of one remote, asked for before each command that reaches it (tokens expire). */
export interface GitCredentials {
  /** Variables to add to git's environment for a command that reaches the remote. */
  environment(signal?: AbortSignal): Promise<Readonly<Record<string, string>>>;
  /**
   * Where they come from, for hints and doctor: `the token in GITHUB_TOKEN (git.auth.tokenEnv)`.
   * Never the secret itself.
   */
  readonly source: string;
  /** The setting to fix when the remote refuses them, such as `git.auth.tokenEnv`. */
  readonly setting: string;
  /**
   * The remote refused what `environment()` gave (GIT_AUTH): a source that caches a token forgets
   * it, so that the next command asks for a new one (a token revoked before its time).
   */
  refused?(given: Readonly<Record<string, string>>): void;
}

const USERNAME_VARIABLE = 'DOCSYNC_GIT_USERNAME';
const PASSWORD_VARIABLE = 'DOCSYNC_GIT_PASSWORD';

/** The password an environment of credentialHelperEnvironment gives git. */
export function givenPassword(given: Readonly<Record<string, string>>): string | undefined {
  return given[PASSWORD_VARIABLE];
}

/**
 * The helper, run by git's shell: it answers `get` with the two variables and ignores `store` and
 * `erase`, so nothing is written anywhere. Its text holds variable names only.
 */
const CREDENTIAL_HELPER = `!f() { test "$1" = get && printf 'username=%s\\npassword=%s\\n' "$${USERNAME_VARIABLE}" "$${PASSWORD_VARIABLE}"; }; f`;

/**
 * The variables that make git answer HTTP(S) `repo`'s request for credentials with `username` and
 * `password`, and only that host's: entries appended after any GIT_CONFIG_COUNT of `base` (the
 * operator's own), so that those still hold.
 */
export function credentialHelperEnvironment(
  repo: string,
  username: string,
  password: string,
  base: NodeJS.ProcessEnv,
): Record<string, string> {
  const url = new URL(repo);
  const scope = `${url.protocol}//${url.host}`;
  const entries: [string, string][] = [
    // An empty value clears the helpers configured so far (system, global, the operator's variables).
    ['credential.helper', ''],
    [`credential.${scope}.helper`, CREDENTIAL_HELPER],
  ];
  const existing = Number.parseInt(base.GIT_CONFIG_COUNT ?? '0', 10);
  const start = Number.isInteger(existing) && existing > 0 ? existing : 0;
  const env: Record<string, string> = {
    GIT_CONFIG_COUNT: String(start + entries.length),
    [USERNAME_VARIABLE]: username,
    [PASSWORD_VARIABLE]: password,
  };
  entries.forEach(([key, value], offset) => {
    env[`GIT_CONFIG_KEY_${start + offset}`] = key;
    env[`GIT_CONFIG_VALUE_${start + offset}`] = value;
  });
  return env;
}
