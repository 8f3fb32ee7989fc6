import { readFileSync, readdirSync } from 'node:fs';

/**
 * The shell examples of the documentation: every fenced block whose info string starts with `sh` or `bash`
 * in docs/*.md and README.md. The conventions they follow (checked by test/foundation/docs.test.ts, run by
 * test/foundation/docs-examples.test.ts):
 *
 * - A page's runnable blocks run in order in one shell session, as a reader following the page would run
 *   them: a variable one block sets is there for the blocks after it on the same page, and nowhere else.
 * - They talk to the server at `$BASE`, which a page defines as `BASE=${BASE:-http://127.0.0.1:8080}`.
 * - A comment line `# => NNN` after a `curl` says the status that request answers; every other request must
 *   answer below 400.
 * - A block that cannot run against a test server (it starts a server, runs the test suites, needs
 *   PostgreSQL or recorded data) says so in its info string, ```` ```sh no-run ````, and its first line is a
 *   comment giving the reason, so a reader sees it too.
 */
export interface ShellExample {
  file: string;
  /** 1-based line of the opening fence. */
  line: number;
  noRun: boolean;
  code: string;
  /** Expected statuses: `curl` is the 0-based index of the request (in the order of the text) it follows. */
  expects: { curl: number; status: number }[];
  /** Number of `curl` commands in the text. */
  curls: number;
}

/** The files whose shell examples are checked and run. */
export function exampleFiles(): string[] {
  const pages = readdirSync('docs')
    .filter((f) => f.endsWith('.md'))
    .sort()
    .map((f) => `docs/${f}`);
  return ['README.md', ...pages];
}

const FENCE_OPEN = /^(\s*)```(\S*)(.*)$/;
const SHELLS = new Set(['sh', 'bash']);
/** A `curl` in command position: at the start of a command, after a pipe, `$(`, `;`, `&&`, `||` or a keyword. */
const CURL = /(?:^|[;&|(]|\$\(|\b(?:then|do|until|while|if|!))\s*curl(?=\s)/g;

export function shellExamples(file: string): ShellExample[] {
  const lines = readFileSync(file, 'utf8').split('\n');
  const examples: ShellExample[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = FENCE_OPEN.exec(lines[i]!);
    if (!open) continue;
    const indent = open[1]!;
    const lang = open[2]!;
    const flags = open[3]!.trim().split(/\s+/).filter(Boolean);
    const body: string[] = [];
    let j = i + 1;
    for (; j < lines.length && !/^\s*```\s*$/.test(lines[j]!); j++)
      body.push(lines[j]!.startsWith(indent) ? lines[j]!.slice(indent.length) : lines[j]!);
    if (SHELLS.has(lang)) {
      let curls = 0;
      const expects: ShellExample['expects'] = [];
      for (const text of body) {
        const annotation = /^\s*#\s*=>\s*(\d{3})\b/.exec(text);
        if (annotation) {
          expects.push({ curl: curls - 1, status: Number(annotation[1]) });
          continue;
        }
        if (/^\s*#/.test(text)) continue;
        curls += (text.match(CURL) ?? []).length;
      }
      examples.push({
        file,
        line: i + 1,
        noRun: flags.includes('no-run'),
        code: body.join('\n'),
        expects,
        curls,
      });
    }
    i = j;
  }
  return examples;
}

/** Names a block assigns (`NAME=...`, `export NAME=...`, `read NAME`, `for NAME in`). */
export function assignedNames(code: string): string[] {
  const names = new Set<string>();
  const bare = code
    .split('\n')
    .filter((l) => !/^\s*#/.test(l))
    .join('\n')
    .replace(/'[^']*'/g, "''")
    .replace(/"(?:[^"\\]|\\.)*"/g, '""');
  for (const m of bare.matchAll(/(?:^\s*|[;&|]\s*|\bexport\s+)([A-Za-z_][A-Za-z0-9_]*)=/gm)) names.add(m[1]!);
  for (const m of bare.matchAll(/\b(?:read(?:\s+-\w+)*|for)\s+([A-Za-z_][A-Za-z0-9_]*)/g)) names.add(m[1]!);
  return [...names];
}

/** Variables a block reads without giving them a default (`${NAME:-...}` and `${NAME:?...}` define themselves). */
export function usedNames(code: string): string[] {
  // Single-quoted text is not expanded by the shell (JSON bodies, node -p programs, quoted heredoc markers).
  const unquoted = code
    .split('\n')
    .filter((l) => !/^\s*#/.test(l))
    .join('\n')
    .replace(/'[^']*'/g, "''");
  const defaulted = new Set<string>();
  for (const m of unquoted.matchAll(/\$\{([A-Za-z_][A-Za-z0-9_]*):?[-?=]/g)) defaulted.add(m[1]!);
  const names = new Set<string>();
  for (const m of unquoted.matchAll(/\$\{?([A-Za-z_][A-Za-z0-9_]*)/g))
    if (!defaulted.has(m[1]!)) names.add(m[1]!);
  return [...names];
}

/** Set by every shell or the system, or meaningful to any reader's shell. */
export const ambientNames = new Set(['HOME', 'PATH', 'PWD', 'USER', 'RANDOM', 'SECONDS']);
