// Compiles the server (src/ → dist/ with `tsc -p tsconfig.build.json`) when the build is missing or older
// than its sources, so `npm start` and the `meridian` bin on a fresh clone run compiled JavaScript with
// nothing done first. Staleness is a hash of every input (not mtimes: a checkout or a merge sets those
// arbitrarily), kept beside the build. Non-TypeScript files under src/ (JSON data) are copied as they are.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const srcDir = join(root, 'src');
const distDir = join(root, 'dist');
const stampFile = join(distDir, '.source-hash');

function* files(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) =>
    a.name.localeCompare(b.name),
  )) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* files(path);
    else yield path;
  }
}

const isSource = (path) => !/\.test\.ts$/.test(path);

/** The hash of everything the build reads: sources, compiler configs and the installed dependency set. */
export function serverSourceHash() {
  const hash = createHash('sha256');
  const inputs = [
    ...[...files(srcDir)].filter(isSource),
    join(root, 'tsconfig.json'),
    join(root, 'tsconfig.build.json'),
    join(root, 'package-lock.json'),
  ];
  for (const path of inputs) {
    if (!existsSync(path)) continue;
    hash.update(relative(root, path)).update('\0').update(readFileSync(path)).update('\0');
  }
  return hash.digest('hex');
}

export function serverBuildIsCurrent() {
  return existsSync(stampFile) && readFileSync(stampFile, 'utf8').trim() === serverSourceHash();
}

/** Runs the compiler into a clean dist/, copies data files, stamps the result; returns the exit status. */
export function buildServer({ quiet = false } = {}) {
  const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');
  if (!existsSync(tsc)) {
    process.stderr.write('meridian: cannot build dist/: TypeScript is not installed (run npm ci)\n');
    return 1;
  }
  rmSync(distDir, { recursive: true, force: true });
  const result = spawnSync(process.execPath, [tsc, '-p', join(root, 'tsconfig.build.json')], {
    cwd: root,
    stdio: quiet ? ['ignore', 'ignore', 'inherit'] : 'inherit',
  });
  if (result.status !== 0) return result.status ?? 1;
  for (const path of files(srcDir)) {
    if (/\.(ts|tsx)$/.test(path)) continue;
    const target = join(distDir, relative(srcDir, path));
    mkdirSync(dirname(target), { recursive: true });
    copyFileSync(path, target);
  }
  writeFileSync(stampFile, `${serverSourceHash()}\n`);
  return 0;
}

/** Builds when needed; a checkout without sources (an installed package) runs the dist/ it ships. */
export function ensureServerBuild({ quiet = false } = {}) {
  if (!existsSync(srcDir)) return 0;
  if (serverBuildIsCurrent()) return 0;
  if (!quiet) process.stderr.write('meridian: compiling the server (src/ → dist/)…\n');
  return buildServer({ quiet });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const status = process.argv.includes('--force') ? buildServer() : ensureServerBuild();
  if (status !== 0) process.exit(status);
}
