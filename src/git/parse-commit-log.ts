// Reads `git log -z` output in COMMIT_LOG_FORMAT into CommitInfo records. Pure, so that odd messages
// (empty bodies, folded trailers, colons in values) are tested without a repository.

export interface CommitInfo {
  sha: string;
  shortSha: string;
  /** The first paragraph of the message, its lines joined by spaces (git's `%s`). */
  subject: string;
  /** The message after the subject, trailers included, without the trailing newline. */
  body: string;
  authorName: string;
  authorEmail: string;
  /** The committer date: when the commit was made, which a rebase changes. */
  committedAt: Date;
  /**
   * The trailers of the message's last paragraph (`Docsync-Revision: rev_1`), folded lines joined,
   * by key lower-cased (git compares trailer keys without case), values in order of appearance.
   */
  trailers: Record<string, string[]>;
}

const FIELDS = [
  '%H', // sha
  '%h', // shortSha
  '%s', // subject
  '%b', // body
  '%an', // authorName
  '%ae', // authorEmail
  '%ct', // committedAt, seconds since the epoch
  '%(trailers:only=true,unfold=true)', // trailers, one `Key: value` line each
];

/** The `--format` for `git log -z`: each field ends with NUL, and -z ends each commit with one more. */
export const COMMIT_LOG_FORMAT = `${FIELDS.map((field) => `${field}%x00`).join('')}`;

const TRAILER_LINE = /^([A-Za-z0-9][A-Za-z0-9-]*)[ \t]*:[ \t]*(.*)$/;
const SHA = /^[0-9a-f]{40}([0-9a-f]{24})?$/;

export class CommitLogFormatError extends Error {}

/** The commits in `output`, in the order git printed them. Throws CommitLogFormatError on a mismatch. */
export function parseCommitLog(output: string): CommitInfo[] {
  const tokens = output.split('\0');
  const commits: CommitInfo[] = [];
  const stride = FIELDS.length + 1;
  // The output ends with the last commit's terminator, which leaves one empty token after it.
  if (tokens.at(-1) !== '') throw new CommitLogFormatError('log output does not end with a terminator');
  const complete = tokens.length - 1;
  if (complete % stride !== 0) throw new CommitLogFormatError('log output has an unexpected field count');
  for (let at = 0; at < complete; at += stride) {
    const [
      sha = '',
      shortSha = '',
      subject = '',
      body = '',
      name = '',
      email = '',
      time = '',
      trailers = '',
    ] = tokens.slice(at, at + FIELDS.length);
    // Between commits, -z's separator is an empty token; a first field starting with "\n" would
    // mean the format lost its -z, and a sha that is not one, that the fields shifted.
    if (tokens[at + FIELDS.length] !== '' || !SHA.test(sha) || !/^\d+$/.test(time)) {
      throw new CommitLogFormatError(
        `log output is not in the expected format near commit ${commits.length}`,
      );
    }
    commits.push({
      sha,
      shortSha,
      subject,
      body: body.replace(/\n+$/, ''),
      authorName: name,
      authorEmail: email,
      committedAt: new Date(Number(time) * 1000),
      trailers: parseTrailers(trailers),
    });
  }
  return commits;
}

/** `Key: value` lines (as `%(trailers:only,unfold)` prints them) by lower-cased key. */
export function parseTrailers(text: string): Record<string, string[]> {
  // A Map first: a key such as `constructor` must not meet Object.prototype.
  const trailers = new Map<string, string[]>();
  for (const line of text.split('\n')) {
    const match = TRAILER_LINE.exec(line.trim());
    if (match === null) continue;
    const [, key = '', value = ''] = match;
    const name = key.toLowerCase();
    const values = trailers.get(name) ?? [];
    values.push(value.trim());
    trailers.set(name, values);
  }
  return Object.fromEntries(trailers);
}

/** The values of trailer `key` in `commit`, compared without case: `trailerValues(c, 'Docsync-Revision')`. */
export function trailerValues(commit: Pick<CommitInfo, 'trailers'>, key: string): readonly string[] {
  const name = key.toLowerCase();
  return Object.hasOwn(commit.trailers, name) ? (commit.trailers[name] ?? []) : [];
}
