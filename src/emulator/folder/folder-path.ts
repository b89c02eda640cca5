// Paths of an imported folder, as the local service accepts them (docs/folder-format.md, "Files and
// pages"): relative, `/`-separated and normalised; never leaving the folder, never absolute, never a
// `.git` segment or a name Windows refuses. One function for archive entries and SUMMARY.md links.

/** A normalised path, or why the raw one names no file of the folder. */
export type FolderPath =
  | { ok: true; path: string }
  /** `top`: the path names the folder itself (`.`, `a/..`); `unsafe`: anything else refused. */
  | { ok: false; problem: 'top' | 'unsafe'; reason: string };

// Windows refuses these characters in names; `:` would open an NTFS alternate data stream.
const WINDOWS_CHARACTERS = /[<>:"|?*]/;
// Device names, with or without an extension (`nul.md` is the null device there too).
const WINDOWS_DEVICES = /^(?:con|prn|aux|nul|conin\$|conout\$|com[0-9¹²³]|lpt[0-9¹²³])$/i;
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused.
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;
const DRIVE = /^[A-Za-z]:/;
const MAX_NAME_BYTES = 255;

/**
 * `raw` normalised: backslashes are separators (as Windows tools write them), `.` and empty segments
 * drop, `..` removes the segment before it. Refused, with a reason to show after the path: empty,
 * absolute (`/x`, `C:\x`, `\\server\x`), leaving the folder, a control character, a `.git` segment,
 * a name ending in a dot or a space, a character or device name Windows refuses, a name over 255
 * bytes of UTF-8.
 */
export function folderPath(raw: string): FolderPath {
  if (raw === '') return { ok: false, problem: 'top', reason: 'is empty' };
  if (CONTROL.test(raw)) return { ok: false, problem: 'unsafe', reason: 'holds a control character' };
  const slashed = raw.replaceAll('\\', '/');
  if (slashed.startsWith('/') || DRIVE.test(slashed))
    return { ok: false, problem: 'unsafe', reason: 'is absolute' };
  const kept: string[] = [];
  for (const name of slashed.split('/')) {
    if (name === '' || name === '.') continue;
    if (name === '..') {
      if (kept.pop() === undefined) return { ok: false, problem: 'unsafe', reason: 'leaves the folder' };
      continue;
    }
    const problem = nameProblem(name);
    if (problem !== undefined) return { ok: false, problem: 'unsafe', reason: problem };
    kept.push(name);
  }
  if (kept.length === 0) return { ok: false, problem: 'top', reason: 'names no file' };
  return { ok: true, path: kept.join('/') };
}

function nameProblem(name: string): string | undefined {
  if (name.toLowerCase() === '.git') return 'holds a .git folder';
  if (name.endsWith('.') || name.endsWith(' ')) return `has a name ending in a dot or a space (${name})`;
  if (WINDOWS_CHARACTERS.test(name)) return `has a character Windows refuses (${name})`;
  const stem = name.split('.', 1)[0]?.trimEnd() ?? name;
  if (WINDOWS_DEVICES.test(stem)) return `uses a Windows device name (${name})`;
  if (name.length * 3 > MAX_NAME_BYTES && Buffer.byteLength(name) > MAX_NAME_BYTES) {
    return `has a name longer than ${MAX_NAME_BYTES} bytes`;
  }
  return undefined;
}

/** `raw` as a message can show it: control characters and line separators escaped, one line. */
export function shownPath(raw: string): string {
  if (raw === '') return '(empty)';
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is escaped.
  return raw.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g, (char) => {
    const code = char.charCodeAt(0);
    return code > 0xff ? `\\u${code.toString(16)}` : `\\x${code.toString(16).padStart(2, '0')}`;
  });
}
