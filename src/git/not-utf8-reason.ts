// The failure of a listing that meets a file or folder name that is not UTF-8 (a Latin-1 `café`
// committed from an old system, say): docsync reads paths as UTF-8, as the service does, so the
// folder cannot be read until the name is. The path is shown as it reads, each byte that is not
// UTF-8 (and each control character) as \xNN, so that the file can be found and renamed.

const strict = new TextDecoder('utf-8', { fatal: true });

/** Why a listing stopped at the path `bytes` in the folder `folder` (`''`, or ending in `/`). */
export function notUtf8Reason(folder: string, bytes: Uint8Array): string {
  return `listed ${folder}${shown(bytes)}, a name that is not UTF-8: rename it to a UTF-8 name (git mv) or move it out of the mapped folder`;
}

function shown(bytes: Uint8Array): string {
  let text = '';
  let at = 0;
  while (at < bytes.length) {
    const byte = bytes[at] ?? 0;
    const length = sequenceLength(byte);
    if (length === 1 && byte >= 0x20 && byte < 0x7f) {
      text += String.fromCharCode(byte);
      at += 1;
      continue;
    }
    if (length > 1 && at + length <= bytes.length) {
      try {
        text += strict.decode(bytes.subarray(at, at + length));
        at += length;
        continue;
      } catch {
        // Not a whole character: its first byte is shown, and the next one tried.
      }
    }
    text += `\\x${byte.toString(16).padStart(2, '0')}`;
    at += 1;
  }
  return text;
}

/** The length of the UTF-8 sequence `byte` starts; 0 for a byte no sequence starts with. */
function sequenceLength(byte: number): number {
  if (byte < 0x80) return 1;
  if (byte >= 0xc2 && byte <= 0xdf) return 2;
  if (byte >= 0xe0 && byte <= 0xef) return 3;
  if (byte >= 0xf0 && byte <= 0xf4) return 4;
  return 0;
}
