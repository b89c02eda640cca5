// What the CLI reads and writes, passed in so that commands are plain functions tests can call.
import type { Writable } from 'node:stream';
import type { Env } from '../config/interpolate-env.js';

export interface CliIo {
  stdout: Writable;
  stderr: Writable;
  env: Env;
  cwd: string;
}

export function processIo(): CliIo {
  return { stdout: process.stdout, stderr: process.stderr, env: process.env, cwd: process.cwd() };
}
