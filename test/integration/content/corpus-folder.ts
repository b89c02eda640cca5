// Text helpers of the folder format corpus: a folder as path to content, lines joined as a file
// holds them, and a small image.

export interface CorpusFolder {
  /** The folder's name under the corpus repository, and the test's. */
  name: string;
  /** Path to content, relative to the folder. */
  files: Readonly<Record<string, string | Buffer>>;
  /** Whether some link is broken by design (a reading with none has lost them); undefined: not known. */
  hasBrokenLinks: boolean | undefined;
}

/** A 1x1 transparent PNG: an image as a docs folder holds one. */
export const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);

/** The lines of a text file, each ended by `\n`. */
export function lines(...text: string[]): string {
  return `${text.join('\n')}\n`;
}
