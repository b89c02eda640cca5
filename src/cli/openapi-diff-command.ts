// `docsync openapi diff <old> <new>`: what a new version of a spec changes, operation by operation,
// with the changes that break clients marked and listed, as a refresh records them in its
// changelog. Each document is read and validated as `openapi validate` does. Exit 0; 4 when there
// are breaking changes and --fail-on-breaking was given; 1 when a document cannot be read or is
// not valid; 2 on bad usage.
import { type BreakingChange, breakingChanges, describeBreakingChange } from '../openapi/breaking-changes.js';
import {
  diffOperations,
  type OperationChanges,
  summariseOperationChanges,
} from '../openapi/operation-changes.js';
import { operationFingerprints } from '../openapi/operation-fingerprints.js';
import type { ArgumentRead } from '../openapi/read-openapi-argument.js';
import type { CliIo } from './cli-io.js';
import { EXIT } from './exit-codes.js';
import { argumentLimits, type OpenApiReadFlags, readArgument } from './openapi-read-flags.js';
import { writeInvalid } from './openapi-validate-command.js';

export interface OpenApiDiffFlags extends OpenApiReadFlags {
  failOnBreaking?: boolean;
}

export async function openApiDiffCommand(
  oldArgument: string,
  newArgument: string,
  flags: OpenApiDiffFlags,
  io: CliIo,
): Promise<number> {
  const limits = await argumentLimits(flags, io, 'diff', [oldArgument, newArgument]);
  if (limits === undefined) return EXIT.invalid;
  const reads: Array<Extract<ArgumentRead, { ok: true }>> = [];
  for (const argument of [oldArgument, newArgument]) {
    const read = await readArgument(argument, limits, io, 'diff');
    if (read === undefined) return EXIT.failure;
    if (!read.ok) {
      writeInvalid(read, flags, io);
      return EXIT.failure;
    }
    reads.push(read);
  }
  const [before, after] = reads as [Extract<ArgumentRead, { ok: true }>, Extract<ArgumentRead, { ok: true }>];
  const changes = diffOperations(
    await operationFingerprints(before.loaded.document),
    await operationFingerprints(after.loaded.document),
  );
  // Operations whose fingerprints are equal cannot break anything: only the others are compared.
  const only = new Set([...changes.changed, ...changes.changedVia.map((entry) => entry.operation)]);
  const breaking = await breakingChanges(before.loaded.document, after.loaded.document, { only });
  if (flags.json === true) {
    io.stdout.write(`${JSON.stringify(diffJson(before.label, after.label, changes, breaking))}\n`);
  } else {
    io.stdout.write(renderDiff(changes, breaking));
  }
  return flags.failOnBreaking === true && breaking.length > 0 ? EXIT.breaking : EXIT.ok;
}

function diffJson(
  oldLabel: string,
  newLabel: string,
  changes: OperationChanges,
  breaking: readonly BreakingChange[],
) {
  return {
    old: oldLabel,
    new: newLabel,
    added: changes.added,
    removed: changes.removed,
    changed: changes.changed,
    changedVia: changes.changedVia,
    breaking: breaking.map((change) => ({ ...change, message: describeBreakingChange(change) })),
  };
}

/** A summary line, the changelog (every line of it), then each breaking change on its own line. */
export function renderDiff(changes: OperationChanges, breaking: readonly BreakingChange[]): string {
  const changed = changes.changed.length + changes.changedVia.length;
  const operations = new Set(breaking.map((change) => change.operation)).size;
  const summary = `${changes.added.length} operation(s) added, ${changes.removed.length} removed, ${changed} changed; ${
    breaking.length === 0
      ? 'no breaking changes'
      : `${breaking.length} breaking change(s) in ${operations} operation(s)`
  }`;
  const changelog = summariseOperationChanges(changes, Number.POSITIVE_INFINITY, breaking);
  const lines = [summary, ...changelog.map((line) => `  ${line}`)];
  if (breaking.length > 0)
    lines.push(
      'breaking changes:',
      ...breaking.map((change) => `  ${change.operation}: ${describeBreakingChange(change)}`),
    );
  return `${lines.join('\n')}\n`;
}
