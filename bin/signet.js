#!/usr/bin/env node
// The `signet` command line (run `npm run build` first).
import { runCli } from '../dist/app/cli.js';

process.exitCode = await runCli(process.argv.slice(2), {
  out: (line) => console.log(line),
  err: (line) => console.error(line),
});
