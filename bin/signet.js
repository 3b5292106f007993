#!/usr/bin/env node
// Runs the compiled command line (npm run build first).
import '../dist/cli.js';
