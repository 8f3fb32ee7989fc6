// Builds the server (src/ → dist/, one ES module per source file, with esbuild) when the build is missing
// or older than its sources, so `npm start` and the `meridian` bin on a fresh clone run plain JavaScript
// with nothing done first. esbuild only strips types (about a second here, where `tsc` took ~20 s); the
// type-check is `npm test`'s job (`tsc --noEmit`), not the start path's. Staleness is a hash of every input
// (not mtimes: a checkout or a merge sets those arbitrarily), kept beside the build. Non-TypeScript files
// under src/ (JSON data, worker scripts) are copied as they are.
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
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const srcDir = join(root, 'src');
const distDir = join(root, 'dist');
const stampFile = join(distDir, '.source-hash');
const tsconfig = join(root, 'tsconfig.build.json');

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
const isTypeScript = (path) => /\.(ts|tsx)$/.test(path);

/** The hash of everything the build reads: sources, configs, this script and the installed dependency set. */
export function serverSourceHash() {
  const hash = createHash('sha256');
  const inputs = [
    ...[...files(srcDir)].filter(isSource),
    join(root, 'tsconfig.json'),
    tsconfig,
    fileURLToPath(import.meta.url),
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

/**
 * The sources import each other as `./x.ts` (tsconfig's `allowImportingTsExtensions`; `tsc` rewrote them
 * with `rewriteRelativeImportExtensions`). esbuild rewrites import paths only while bundling, so it runs in
 * bundle mode with every import left external: each source file still becomes one output file, and a
 * relative `.ts`/`.tsx` import becomes the `.js` file built beside it. Anything else stays as written.
 */
const externalImports = {
  name: 'meridian-external-imports',
  setup(build) {
    build.onResolve({ filter: /.*/ }, (args) => {
      if (args.kind === 'entry-point') return undefined;
      const relativeTs = /^\.\.?\/.*\.tsx?$/.test(args.path) && !/\.d\.tsx?$/.test(args.path);
      return { path: relativeTs ? args.path.replace(/\.tsx?$/, '.js') : args.path, external: true };
    });
  },
};

/** Builds a clean dist/, copies data files, stamps the result; resolves to the exit status. */
export async function buildServer({ quiet = false } = {}) {
  // esbuild is a devDependency, like TypeScript before it: it is needed only to build from source, which
  // runs after a full `npm ci` (npm start, the image's build stage); installs of the built server skip it.
  let esbuild;
  try {
    esbuild = await import('esbuild');
  } catch {
    process.stderr.write('meridian: cannot build dist/: esbuild is not installed (run npm ci)\n');
    return 1;
  }
  rmSync(distDir, { recursive: true, force: true });
  const sources = [...files(srcDir)].filter((path) => isTypeScript(path) && isSource(path));
  try {
    const result = await esbuild.build({
      entryPoints: sources,
      outbase: srcDir,
      outdir: distDir,
      bundle: true,
      plugins: [externalImports],
      format: 'esm',
      platform: 'node',
      // The Node.js of package.json's engines: its syntax is left as written (tsc, at tsconfig's ES2022,
      // kept import attributes too). Class fields follow tsconfig, read above: ES2022 means define semantics.
      target: 'node20.19',
      tsconfig,
      sourcemap: true,
      sourcesContent: false,
      // Dead code inside a module stays as `tsc` left it; minification never applies.
      treeShaking: false,
      logLevel: quiet ? 'error' : 'warning',
      absWorkingDir: root,
    });
    if (result.errors.length > 0) return 1;
  } catch {
    return 1; // esbuild has already reported the errors
  } finally {
    await esbuild.stop();
  }
  for (const path of files(srcDir)) {
    if (isTypeScript(path)) continue;
    const target = join(distDir, relative(srcDir, path));
    mkdirSync(dirname(target), { recursive: true });
    copyFileSync(path, target);
  }
  // A new data folder starts as a copy of this migrated, empty cluster (src/adapters/db/pglite-template.ts).
  try {
    const { createPgliteTemplate } = await import(
      pathToFileURL(join(distDir, 'adapters/db/pglite-template.js')).href
    );
    await createPgliteTemplate();
  } catch (error) {
    process.stderr.write(`meridian: creating the embedded database template failed: ${error.message}\n`);
    return 1;
  }
  writeFileSync(stampFile, `${serverSourceHash()}\n`);
  return 0;
}

/** Builds when needed; a checkout without sources (an installed package) runs the dist/ it ships. */
export async function ensureServerBuild({ quiet = false } = {}) {
  if (!existsSync(srcDir)) return 0;
  if (serverBuildIsCurrent()) return 0;
  if (!quiet) process.stderr.write('meridian: building the server (src/ → dist/)…\n');
  return buildServer({ quiet });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const status = process.argv.includes('--force') ? await buildServer() : await ensureServerBuild();
  if (status !== 0) process.exit(status);
}
