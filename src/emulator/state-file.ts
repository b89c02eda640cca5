// `--state <file>`: the local service's data kept across restarts. Written atomically (a temp file,
// then a rename) shortly after each change and on close, so a crash never leaves half a file.
import { readFile, rename, writeFile } from 'node:fs/promises';
import { EnvironmentError } from '../errors/environment-error.js';
import { type EmulatorState, emptyState } from './emulator-state.js';

export async function readStateFile(file: string): Promise<EmulatorState | undefined> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  let state: unknown;
  try {
    state = JSON.parse(text);
  } catch (error) {
    throw new EnvironmentError(
      'STATE_FILE_INVALID',
      `${file} is not a state file of docsync emulator (invalid JSON): move it away or pass another --state`,
      { cause: error },
    );
  }
  if (typeof state !== 'object' || state === null || (state as { version?: unknown }).version !== 1) {
    throw new EnvironmentError(
      'STATE_FILE_INVALID',
      `${file} is not a version 1 state file of docsync emulator: move it away or pass another --state`,
    );
  }
  // A file written before a kind of record existed (sites, teams) gets it empty.
  return { ...emptyState(), ...(state as EmulatorState) };
}

export async function writeStateFile(file: string, state: EmulatorState): Promise<void> {
  const temp = `${file}.${process.pid}.tmp`;
  await writeFile(temp, JSON.stringify(state));
  await rename(temp, file);
}
