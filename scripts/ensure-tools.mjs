// Installs the native test/bench tools that are not npm dependencies of the project, on demand, into
// `.tools/` (git-ignored). Anvil ships one npm package per platform, and a registry mirror may carry only
// some of them: as a devDependency its missing platform entries made the lockfile fail `npm ci`
// everywhere. Here only this machine's platform package is fetched, and a platform without one is
// reported, not fatal (the suites that need anvil skip, or fail under MERIDIAN_REQUIRE_SERVICES=1).
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
export const ANVIL_VERSION = '1.7.1';
const arch = process.arch === 'x64' ? 'amd64' : process.arch;
export const anvilPackage = `@foundry-rs/anvil-${process.platform}-${arch}`;
export const anvilDir = join(root, '.tools', `anvil-${ANVIL_VERSION}`);
export const anvilPath = join(
  anvilDir,
  'node_modules',
  anvilPackage,
  'bin',
  process.platform === 'win32' ? 'anvil.exe' : 'anvil',
);

export function ensureAnvil() {
  if (existsSync(anvilPath)) return true;
  console.error(`meridian: installing ${anvilPackage}@${ANVIL_VERSION} into .tools/ (test tool)…`);
  const result = spawnSync(
    'npm',
    [
      'install',
      '--prefix',
      anvilDir,
      '--no-save',
      '--no-package-lock',
      '--no-audit',
      '--no-fund',
      `${anvilPackage}@${ANVIL_VERSION}`,
    ],
    { stdio: ['ignore', 'ignore', 'inherit'], shell: process.platform === 'win32' },
  );
  if (result.status !== 0 || !existsSync(anvilPath)) {
    console.error(`meridian: ${anvilPackage}@${ANVIL_VERSION} is not available here; anvil suites will skip`);
    return false;
  }
  return true;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) ensureAnvil();
