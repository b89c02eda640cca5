// What the documentation service accepts in one content import: part of its interface, beside the
// wire schemas. The local service enforces these limits when it reads an archive; docsync checks a
// docs folder against them (or a mapping's own `import.limits`, whose defaults they are) before
// anything is bundled or sent, so a folder that cannot fit fails early.

export interface ImportLimits {
  /** Content bytes of all files together, before compression. */
  maxBytes: number;
  /** Content bytes of one file. */
  maxFileBytes: number;
  /** Files in one import. */
  maxFiles: number;
}

const MIB = 1024 * 1024;

export const SERVICE_IMPORT_LIMITS: Readonly<ImportLimits> = Object.freeze({
  maxBytes: 50 * MIB,
  maxFileBytes: 20 * MIB,
  // The service's public document gives no limit on the files of an import (a 50,000-page folder is
  // imported whole): this is only a bound on a folder gone wrong, the most import.limits.maxFiles
  // takes. The bytes above still bound what one import holds.
  maxFiles: 10_000_000,
});
