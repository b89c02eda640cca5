// The one gate every path in a docs folder or archive goes through: a name that could leave the
// folder, or that git or a common file system would refuse, never reaches a Map key or the disk.
import { ContentError } from './content-error.js';

/** How an error names the path and its root: `archive entry ../x leaves the archive root`. */
export interface PathContext {
  subject: string;
  root: string;
}

const DEFAULT_CONTEXT: PathContext = { subject: 'path', root: 'root folder' };

// Windows refuses these in names; `:` would also open an NTFS alternate data stream.
const WINDOWS_RESERVED_CHARACTER = /[<>:"|?*]/;
const DRIVE_LETTER = /^[A-Za-z]:/;
// Windows device names, with or without an extension (`nul.md` opens the null device), and with
// spaces before it: the name's part before its first dot, its end trimmed.
const WINDOWS_DEVICE_NAME = /^(CON|PRN|AUX|NUL|CONIN\$|CONOUT\$|COM[0-9¹²³]|LPT[0-9¹²³])\s*(?:\.|$)/i;
const MAX_SEGMENT_BYTES = 255;
// A UTF-16 unit is at most 3 bytes of UTF-8 (a surrogate pair, 2 units, 4): a name this short fits.
const SHORT_SEGMENT_UNITS = Math.floor(MAX_SEGMENT_BYTES / 3);
/** C0 and C1 controls and DEL: invisible in logs, refused or mangled by file systems and terminals. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point.
const CONTROL_CHARACTER = /[\u0000-\u001f\u007f-\u009f]/;

/**
 * Normalises `raw` to a relative posix path (`a/./b\c.md` to `a/b/c.md`) or throws a ContentError
 * `PATH_UNSAFE` naming it. Backslashes count as separators, as Windows tools write them; `..` is
 * allowed only while it stays inside the root (`a/../b` is `b`). Refused: empty paths and paths that
 * name nothing (`.`), absolute paths (`/x`, `C:\x`, `\\server\share`), control characters, a `.git`
 * segment in any case, a segment ending in a dot or a space, Windows reserved characters (`<>:"|?*`)
 * and device names (`CON`, `nul.md`, `COM1`), and segments over 255 bytes of UTF-8.
 */
export function safeRelativePath(raw: string, context: PathContext = DEFAULT_CONTEXT): string {
  const refuse = (reason: string): never => {
    throw new ContentError('PATH_UNSAFE', `${context.subject} ${printable(raw)} ${reason}`, { path: raw });
  };

  if (raw === '') refuse('is empty');
  // One regex scan, not a spread of every path into characters (planning calls this per file).
  if (CONTROL_CHARACTER.test(raw)) refuse('contains a control character');
  const slashed = raw.replaceAll('\\', '/');
  if (slashed.startsWith('/') || DRIVE_LETTER.test(slashed)) refuse('is absolute');

  const segments: string[] = [];
  // Most paths are normal already: those come back as given, without joining their segments again.
  let normal = slashed === raw;
  for (const segment of slashed.split('/')) {
    if (segment === '' || segment === '.' || segment === '..') {
      normal = false;
      if (segment === '..' && segments.pop() === undefined) refuse(`leaves the ${context.root}`);
      continue;
    }
    const problem = segmentProblem(segment);
    if (problem !== undefined) refuse(problem);
    segments.push(segment);
  }
  if (segments.length === 0) refuse('names no file');
  return normal ? raw : segments.join('/');
}

function segmentProblem(segment: string): string | undefined {
  if (segment.length === 4 && segment.toLowerCase() === '.git') return 'contains a .git folder';
  if (segment.endsWith('.') || segment.endsWith(' '))
    return `has a name ending in a dot or a space (${segment})`;
  if (WINDOWS_RESERVED_CHARACTER.test(segment)) return `has a character Windows refuses (${segment})`;
  const device = WINDOWS_DEVICE_NAME.exec(segment)?.[1];
  if (device !== undefined) return `uses the Windows device name ${device}`;
  if (segment.length > SHORT_SEGMENT_UNITS && Buffer.byteLength(segment, 'utf8') > MAX_SEGMENT_BYTES) {
    return `has a name longer than ${MAX_SEGMENT_BYTES} bytes`;
  }
  return undefined;
}

/** The path as it can be shown in a message or a log line: controls escaped, empty made visible. */
function printable(raw: string): string {
  if (raw === '') return '(empty)';
  return [...raw]
    .map((char) => {
      const code = char.charCodeAt(0);
      if (CONTROL_CHARACTER.test(char)) return `\\x${code.toString(16).padStart(2, '0')}`;
      // Line and paragraph separators would break a log line as surely as a newline.
      if (code === 0x2028 || code === 0x2029) return `\\u${code.toString(16)}`;
      return char;
    })
    .join('');
}
