#!/usr/bin/env node
// Operator CLI entry: runs the built server in dist/, building it first in a source checkout where the
// build is missing or older than src/ (see scripts/ensure-build.mjs).
import { existsSync } from 'node:fs';

const ensureBuild = new URL('../scripts/ensure-build.mjs', import.meta.url);
if (existsSync(ensureBuild)) {
  const { ensureServerBuild } = await import(ensureBuild.href);
  const status = await ensureServerBuild();
  if (status !== 0) process.exit(status);
}
await import('../dist/main/cli.js');
