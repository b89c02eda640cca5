// A file or folder name that is not UTF-8 (a Latin-1 `café` committed from an old system, say) as
// a listing gives it: docsync reads paths as UTF-8, as the service does, so such a file can be
// neither imported nor named by a page, and the import leaves it out with a warning (it stays in
// git, and no export touches it); a working copy's names are shown alike. The name is shown as it
// reads, with each byte that is not UTF-8, each control character (C0 and C1) and each backslash as
// \xNN, so that the file can be found and renamed, and nothing in a name can break or disguise a line.

const strict = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
const BACKSLASH = 0x5c;

/** The listed name `bytes`, which is not UTF-8, as a listing's path shows it. */
export function shownGitPath(bytes: Uint8Array): string {
  let text = '';
  let at = 0;
  while (at < bytes.length) {
    const byte = bytes[at] ?? 0;
    const length = sequenceLength(byte);
    if (length === 1 && byte >= 0x20 && byte < 0x7f && byte !== BACKSLASH) {
      text += String.fromCharCode(byte);
      at += 1;
      continue;
    }
    if (length > 1 && at + length <= bytes.length) {
      const character = decoded(bytes.subarray(at, at + length));
      // C1 controls (U+0080 to U+009F) are shown as their bytes, as other controls are.
      if (character !== undefined && !(length === 2 && byte === 0xc2 && (bytes[at + 1] ?? 0) < 0xa0)) {
        text += character;
        at += length;
        continue;
      }
    }
    text += escaped(byte);
    at += 1;
  }
  return text;
}

function decoded(sequence: Uint8Array): string | undefined {
  try {
    return strict.decode(sequence);
  } catch {
    // Not a whole character: its first byte is shown, and the next one tried.
    return undefined;
  }
}

function escaped(byte: number): string {
  return `\\x${byte.toString(16).padStart(2, '0')}`;
}

/** The length of the UTF-8 sequence `byte` starts; 0 for a byte no sequence starts with. */
function sequenceLength(byte: number): number {
  if (byte < 0x80) return 1;
  if (byte >= 0xc2 && byte <= 0xdf) return 2;
  if (byte >= 0xe0 && byte <= 0xef) return 3;
  if (byte >= 0xf0 && byte <= 0xf4) return 4;
  return 0;
}
