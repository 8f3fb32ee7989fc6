// Installs dependencies on a fresh clone (or after package-lock.json changed) so that
// `npm start` and `npm test` work with nothing done first.
import { spawnSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';

const marker = 'node_modules/.package-lock.json';
const lock = 'package-lock.json';
const stale =
  !existsSync(marker) || (existsSync(lock) && statSync(lock).mtimeMs > statSync(marker).mtimeMs + 1000);
if (stale) {
  console.error('meridian: installing dependencies (first run)…');
  // A fresh clone gets exactly the lockfile (`npm ci`); an existing install after a lockfile change is
  // brought up to date in place (`npm install`, which follows the lock too, without deleting node_modules).
  const args = existsSync(marker)
    ? ['install', '--no-audit', '--no-fund']
    : ['ci', '--no-audit', '--no-fund'];
  const result = spawnSync('npm', args, { stdio: 'inherit', shell: process.platform === 'win32' });
  if (result.status !== 0) process.exit(result.status ?? 1);
}
