#!/usr/bin/env node
// The `docsync` executable.
import { processIo } from './cli-io.js';
import { main } from './main.js';

process.exitCode = await main(process.argv.slice(2), processIo());
