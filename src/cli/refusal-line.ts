// The one line `docsync once` writes on stderr when an import is refused or fails: what went wrong
// (the error's message, which names the file or setting), its code, and what to do when a hint says
// more than the code's meaning. Plain text for a CI log: no JSON, no stack.
import { ERROR_CODES, type ErrorCode } from '../errors/error-codes.js';

export interface Refusal {
  code: ErrorCode;
  message: string;
  /** failureHint's advice; left out when it only repeats what the code means. */
  hint?: string | undefined;
}

/** `docsync once: docs: <message> (CODE); hint: <what to do>`, ending with a newline. */
export function refusalLine(mapping: string, refusal: Refusal): string {
  const hint =
    refusal.hint === undefined || refusal.hint === '' || refusal.hint === ERROR_CODES[refusal.code]
      ? ''
      : `; hint: ${oneLine(refusal.hint)}`;
  return `docsync once: ${mapping}: ${oneLine(refusal.message)} (${refusal.code})${hint}\n`;
}

/** A message that quotes a program's output (git's stderr) can span lines: one line per refusal. */
function oneLine(text: string): string {
  return text.trim().replace(/\s*\n\s*/g, ' ');
}
