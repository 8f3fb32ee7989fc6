// Builds the web console (console/ → console/dist/) when the build is missing or older than its sources,
// so that `npm start` on a fresh clone serves it with nothing done first. Staleness is a hash of every
// source file (not mtimes: a checkout or a merge sets those arbitrarily), kept beside the build.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const root = fileURLToPath(new URL('..', import.meta.url));
const consoleDir = join(root, 'console');
const stampFile = join(consoleDir, 'dist', '.source-hash');

function* files(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) =>
    a.name.localeCompare(b.name),
  )) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* files(path);
    else if (!/\.test\.tsx?$/.test(entry.name)) yield path;
  }
}

/** The hash of everything the build reads: sources (the SDK's too), page, config and the dependency set. */
export function consoleSourceHash() {
  const hash = createHash('sha256');
  const inputs = [
    ...files(join(consoleDir, 'src')),
    ...files(join(root, 'packages', 'client', 'src')),
    join(consoleDir, 'index.html'),
    join(consoleDir, 'vite.config.ts'),
    join(consoleDir, 'package.json'),
    join(root, 'package-lock.json'),
  ];
  for (const path of inputs) {
    if (!existsSync(path) || !statSync(path).isFile()) continue;
    hash.update(path.slice(root.length)).update('\0').update(readFileSync(path)).update('\0');
  }
  return hash.digest('hex');
}

export function consoleBuildIsCurrent() {
  return existsSync(stampFile) && readFileSync(stampFile, 'utf8').trim() === consoleSourceHash();
}

/** Vite, from the console workspace's dependencies (hoisted to the root by npm); undefined when not installed. */
function viteBin() {
  for (const dir of [join(consoleDir, 'node_modules'), join(root, 'node_modules')]) {
    const bin = join(dir, 'vite', 'bin', 'vite.js');
    if (existsSync(bin)) return bin;
  }
  return undefined;
}

/** Runs `vite build` and stamps the result; returns the exit status. */
export function buildConsole({ quiet = false } = {}) {
  const vite = viteBin();
  if (!vite) {
    process.stderr.write('meridian: cannot build console/: vite is not installed (run npm ci)\n');
    return 1;
  }
  const result = spawnSync(
    process.execPath,
    [vite, 'build', '--config', join(consoleDir, 'vite.config.ts')],
    {
      cwd: consoleDir,
      // Always a production build: a NODE_ENV inherited from the caller (vitest sets `test`) would give
      // React's development build, unminified, to whoever loads the console next.
      env: { ...process.env, NODE_ENV: 'production' },
      stdio: quiet ? ['ignore', 'ignore', 'inherit'] : 'inherit',
    },
  );
  if (result.status !== 0) return result.status ?? 1;
  compressAssets(join(consoleDir, 'dist', 'assets'));
  writeFileSync(stampFile, `${consoleSourceHash()}\n`);
  return 0;
}

/** Brotli and gzip copies beside each text asset, served as they are (no compression per request). */
function compressAssets(dir) {
  for (const path of files(dir)) {
    if (!/\.(js|css|svg|json)$/.test(path)) continue;
    const body = readFileSync(path);
    writeFileSync(
      `${path}.br`,
      brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }),
    );
    writeFileSync(`${path}.gz`, gzipSync(body, { level: 9 }));
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const force = process.argv.includes('--force');
  if (force || !consoleBuildIsCurrent()) {
    if (!force && !viteBin()) {
      // A production install (`npm ci --omit=dev`) has no Vite: the API runs all the same, and the console's
      // pages answer 503 until a full `npm ci` lets this build them.
      console.error('meridian: web console not built (vite is not installed: run npm ci); starting the API');
    } else {
      console.error('meridian: building the web console…');
      const status = buildConsole();
      if (status !== 0) process.exit(status);
    }
  }
}
