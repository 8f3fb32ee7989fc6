import { spawnSync } from 'node:child_process';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = process.cwd();
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
  engines: { node: string };
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
};
const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8')) as {
  packages: Record<
    string,
    { version?: string; dev?: boolean; optional?: boolean; engines?: { node?: string } }
  >;
};

/** What every Dockerfile and CI pipeline runs: `npm ci` refuses a lockfile out of sync with package.json. */
describe('lockfile', () => {
  for (const extra of [[], ['--omit=dev']]) {
    it(`npm ci --dry-run ${extra.join(' ')} accepts the lockfile`, () => {
      const result = spawnSync('npm', ['ci', '--dry-run', '--no-audit', '--no-fund', ...extra], {
        cwd: root,
        encoding: 'utf8',
        timeout: 120_000,
      });
      expect(result.status, result.stderr).toBe(0);
      expect(result.stderr).not.toMatch(/EBADENGINE/);
    });
  }

  it("the server's production install holds no front-end package (the console's are its workspace's, dev only)", () => {
    const frontEnd = [
      'react',
      'react-dom',
      'react-router',
      '@tanstack/react-query',
      'lightweight-charts',
      'vite',
    ];
    for (const name of [...frontEnd, 'openapi-fetch'])
      expect(pkg.dependencies, name).not.toHaveProperty(name);
    for (const name of frontEnd) expect(lock.packages[`node_modules/${name}`]?.dev, name).toBe(true);
    // The image's production install leaves the workspaces (console, SDK) out altogether.
    expect(readFileSync(join(root, 'Dockerfile'), 'utf8')).toMatch(/npm ci --omit=dev --workspaces=false/);
  });

  it('no installed runtime package needs a newer Node than the engines field allows', () => {
    const lowest = Number(/\d+/.exec(pkg.engines.node)?.[0]);
    const tooNew = Object.entries(lock.packages)
      .filter(([name, entry]) => name && !entry.dev && !entry.optional && entry.engines?.node)
      .filter(([, entry]) => {
        const range = entry.engines!.node!;
        // a range admitting the lowest major (e.g. ">=18", "20 || >=22", "^20.19.0") is fine
        return !new RegExp(`(^|[^\\d.])${lowest}(\\.|\\b)|>=\\s*1\\d\\b|>=?\\s*[0-9](\\.|\\b)|\\*`).test(
          range,
        );
      })
      .map(([name, entry]) => `${name}: ${entry.engines!.node}`);
    expect(tooNew).toEqual([]);
  });

  it('every package imported by src/ is declared (type-only imports may be devDependencies)', () => {
    const declared = new Set(Object.keys(pkg.dependencies));
    const typesOnly = new Set(Object.keys(pkg.devDependencies));
    const missing = new Set<string>();
    const walk = (dir: string): void => {
      for (const name of readdirSync(dir)) {
        const path = join(dir, name);
        if (statSync(path).isDirectory()) walk(path);
        else if (/\.ts$/.test(name) && !/\.test\.ts$/.test(name)) {
          const text = readFileSync(path, 'utf8');
          for (const m of text.matchAll(
            /(import\s+type\s[^;]*?from\s+|from\s+|import\(\s*)'([^'.][^']*)'/g,
          )) {
            const spec = m[2]!;
            if (spec.startsWith('node:')) continue;
            const name = spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0]!;
            const typeOnly = m[1]!.startsWith('import') && /\btype\b/.test(m[1]!);
            if (!declared.has(name) && !(typeOnly && typesOnly.has(name)))
              missing.add(`${name} (${path.slice(root.length + 1)})`);
          }
        }
      }
    };
    walk(join(root, 'src'));
    expect([...missing]).toEqual([]);
  });
});
