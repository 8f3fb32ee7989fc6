import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { loadConfig, variables } from '../../src/config/env.ts';

const root = process.cwd();
const composeText = readFileSync(join(root, 'compose.yaml'), 'utf8');

/**
 * Compose's interpolation of `${NAME}`, `${NAME:-default}`, `${NAME-default}`, `${NAME:?message}` and
 * `${NAME?message}` (and `$$` for a dollar sign) over the given variables, as `docker compose` does it with a
 * `.env` file: a required variable left unset fails with its message.
 */
function interpolate(text: string, vars: Record<string, string>): string {
  return text.replace(
    /\$\$|\$\{(\w+)(?:(:?)([-?])([^}]*))?\}/g,
    (whole, name: string | undefined, colon: string, op: string, arg: string) => {
      if (whole === '$$') return '$';
      const value = vars[name!];
      const missing = value === undefined || (colon === ':' && value === '');
      if (op === '?' && missing) throw new Error(`required variable ${name} is missing a value: ${arg}`);
      if (op === '-' && missing) return arg;
      return value ?? '';
    },
  );
}

/** What the image sets (`ENV` of the Dockerfile's last stage), under what compose adds. */
function imageEnvironment(): Record<string, string> {
  const dockerfile = readFileSync(join(root, 'Dockerfile'), 'utf8').replace(/\\\n\s*/g, ' ');
  const lastStage = dockerfile.slice(dockerfile.lastIndexOf('\nFROM '));
  const env: Record<string, string> = {};
  for (const line of lastStage.split('\n'))
    if (line.startsWith('ENV '))
      for (const [, name, value] of line.slice(4).matchAll(/(\w+)=(\S+)/g)) env[name!] = value!;
  return env;
}

/** The first-run `.env` the documentation tells the operator to write. */
const firstRunEnv = { MERIDIAN_SECRETS_KEY: 'kR7zP2vQ9xL4mN8bT1wY6cF3hJ5dS0aE+gU/iO=' };

function services(vars: Record<string, string>) {
  return parse(interpolate(composeText, vars), { merge: true }).services as Record<
    string,
    { environment?: Record<string, string | number | boolean>; command?: string[] }
  >;
}

describe('compose.yaml environment against the configuration schema', () => {
  const meridianServices = ['migrate', 'api', 'worker'];

  it('names only variables the schema knows, with values the schema accepts, in every Meridian service', () => {
    const known = new Set(Object.values(variables).map((v) => v.name));
    for (const name of meridianServices) {
      const environment = services(firstRunEnv)[name]!.environment ?? {};
      for (const key of Object.keys(environment)) expect(known, `${name}: ${key}`).toContain(key);
      const env = {
        ...imageEnvironment(),
        ...Object.fromEntries(Object.entries(environment).map(([k, v]) => [k, String(v)])),
      };
      const config = loadConfig(env);
      expect(config.storage).toBe('postgres');
      expect(config.shared).toBe('redis');
      // Scaled mode creates and delivers webhooks only with the operator's key, the same on every replica.
      expect(config.secretsKey, `${name}: MERIDIAN_SECRETS_KEY`).toBe(firstRunEnv.MERIDIAN_SECRETS_KEY);
    }
  });

  it('refuses to start without MERIDIAN_SECRETS_KEY, naming the first-run step', () => {
    expect(() => services({})).toThrow(/MERIDIAN_SECRETS_KEY.*openssl rand/);
  });

  it('documents the first-run step that writes the key', () => {
    const operations = readFileSync(join(root, 'docs/operations.md'), 'utf8');
    expect(operations).toContain('echo "MERIDIAN_SECRETS_KEY=$(openssl rand -base64 32)" >> .env');
  });
});
