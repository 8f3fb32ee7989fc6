// What `npm start` checks before the server runs: the dependencies first (both builds need them), then the web
// console and the server, each built when its sources changed, side by side — two processes, a core each.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const run = (script) =>
  new Promise((resolve) => {
    const child = spawn(process.execPath, [fileURLToPath(new URL(script, import.meta.url))], {
      stdio: 'inherit',
    });
    child.on('exit', (code) => resolve(code ?? 1));
  });

const deps = await run('./ensure-deps.mjs');
if (deps !== 0) process.exit(deps);
const builds = await Promise.all([run('./ensure-console.mjs'), run('./ensure-build.mjs')]);
process.exit(builds.find((code) => code !== 0) ?? 0);
