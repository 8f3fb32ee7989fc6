import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { describe, expect, it } from 'vitest';
import { configMarkdownTable } from '../../src/config/env.ts';
import {
  ambientNames,
  assignedNames,
  exampleFiles,
  shellExamples,
  usedNames,
} from '../harness/doc-examples.ts';

/** Reference pages: what a user reads and follows. Decision records live in docs/adr/. */
const pages = readdirSync('docs')
  .filter((f) => f.endsWith('.md'))
  .sort()
  .map((f) => `docs/${f}`);
const adrFiles = readdirSync('docs/adr')
  .filter((f) => f !== 'README.md' && f.endsWith('.md'))
  .sort();
const markdown = [
  'README.md',
  'CHANGELOG.md',
  ...pages,
  'docs/adr/README.md',
  ...adrFiles.map((f) => `docs/adr/${f}`),
];

/** Lines outside fenced code blocks, with their 1-based numbers. */
function prose(file: string): { n: number; text: string }[] {
  const out: { n: number; text: string }[] = [];
  let fenced = false;
  readFileSync(file, 'utf8')
    .split('\n')
    .forEach((text, i) => {
      if (/^\s*```/.test(text)) fenced = !fenced;
      else if (!fenced) out.push({ n: i + 1, text });
    });
  return out;
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens, repeats numbered. */
function anchors(file: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  for (const { text } of prose(file)) {
    const h = /^#{1,6}\s+(.*)$/.exec(text);
    if (!h) continue;
    const base = h[1]!
      .trim()
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n === 0 ? base : `${base}-${n}`);
  }
  return out;
}

function headings(file: string): string[] {
  return prose(file).flatMap(({ text }) => /^#{1,6}\s+(.*)$/.exec(text)?.[1]?.trim() ?? []);
}

/** Source, test and documentation files that may name a documentation page. */
function referringFiles(): string[] {
  const roots = ['src', 'test', 'bench', 'scripts', 'console/src', 'examples', 'docs'];
  for (const p of readdirSync('packages')) roots.push(join('packages', p, 'src'));
  const out = ['README.md', 'CHANGELOG.md'];
  const walk = (dir: string) => {
    if (!existsSync(dir)) return;
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (name === 'node_modules' || name === 'dist') continue;
      if (statSync(path).isDirectory()) walk(path);
      else if (/\.(ts|tsx|mjs|md)$/.test(name)) out.push(path);
    }
  };
  for (const root of roots) walk(root);
  return out;
}

describe('documentation stays current', () => {
  it('README lists every environment variable exactly as the schema does (npm run docs:config)', () => {
    const readme = readFileSync('README.md', 'utf8');
    expect(readme).toContain(configMarkdownTable());
  });

  it('README shows both quick-start commands', () => {
    const readme = readFileSync('README.md', 'utf8');
    expect(readme).toMatch(/npm start/);
    expect(readme).toMatch(/npm test/);
  });
});

describe('documentation by kind', () => {
  it('has a reference page for each subject a user looks for', () => {
    for (const page of [
      'getting-started',
      'configuration',
      'api',
      'alerts',
      'webhooks',
      'portfolio',
      'push-channel',
      'operations',
      'failures',
      'architecture',
      'forecasting',
      'benchmarks',
    ])
      expect(existsSync(`docs/${page}.md`), page).toBe(true);
  });

  it('keeps every reference page short and free of dated diary headings', () => {
    for (const page of pages) {
      const lines = readFileSync(page, 'utf8').trimEnd().split('\n').length;
      expect(
        lines,
        `${page} has ${lines} lines (at most 300: split it or move history to an ADR)`,
      ).toBeLessThanOrEqual(300);
      for (const heading of headings(page))
        expect(heading, `${page}: a dated heading belongs in docs/adr/ or CHANGELOG.md`).not.toMatch(
          /\b\d{4}-\d{2}-\d{2}\b|\b(?:morning|midday|evening|night)\b/i,
        );
    }
  });

  it('numbers the decision records in order, each with its sections, all listed in the index', () => {
    const index = readFileSync('docs/adr/README.md', 'utf8');
    adrFiles.forEach((file, i) => {
      const number = String(i + 1).padStart(4, '0');
      expect(file, 'NNNN-short-title.md, numbered from 0001 without gaps').toMatch(
        new RegExp(`^${number}-[a-z0-9]+(?:-[a-z0-9]+)*\\.md$`),
      );
      const text = readFileSync(`docs/adr/${file}`, 'utf8');
      expect(text.split('\n')[0], file).toMatch(new RegExp(`^# ${number}\\. \\S`));
      for (const section of ['Context', 'Decision', 'Consequences', 'Alternatives considered'])
        expect(text, `${file}: section ${section}`).toMatch(new RegExp(`^## ${section}$`, 'm'));
      expect(index, `docs/adr/README.md lists ${file}`).toContain(`(${file})`);
    });
  });

  it('has no link to a missing page or heading', () => {
    const problems: string[] = [];
    for (const file of markdown) {
      for (const { n, text } of prose(file)) {
        const withoutCode = text.replace(/`[^`]*`/g, '');
        for (const m of withoutCode.matchAll(/\]\(([^)\s]+)\)/g)) {
          const target = m[1]!;
          if (/^[a-z]+:/.test(target)) continue;
          const [path, anchor] = target.split('#') as [string, string | undefined];
          const resolved = path ? normalize(join(dirname(file), path)) : file;
          if (!existsSync(resolved)) problems.push(`${file}:${n}: ${target} (no file ${resolved})`);
          else if (anchor && resolved.endsWith('.md') && !anchors(resolved).has(anchor))
            problems.push(`${file}:${n}: ${target} (no heading #${anchor} in ${resolved})`);
        }
      }
    }
    expect(problems).toEqual([]);
  });

  it('names only pages and sections that exist, wherever code or docs point at them', () => {
    const problems: string[] = [];
    for (const file of referringFiles()) {
      const text = readFileSync(file, 'utf8').replace(/\n\s*(?:\*|\/\/)\s*/g, ' ');
      for (const m of text.matchAll(/\bdocs\/([\w/.-]+?\.md)(?:#([\w-]+)|,\s*"([^"]+)")?/g)) {
        const page = `docs/${m[1]}`;
        if (!existsSync(page)) problems.push(`${file}: ${m[0]} (no such page)`);
        else if (m[2] && !anchors(page).has(m[2])) problems.push(`${file}: ${m[0]} (no such heading)`);
        else if (m[3] && !headings(page).some((h) => h.startsWith(m[3]!)))
          problems.push(`${file}: ${m[0]} (no heading starting so)`);
      }
    }
    expect(problems).toEqual([]);
  });
});

describe('shell examples (run by docs-examples.test.ts)', () => {
  const files = exampleFiles();

  it('are ASCII only, with no placeholders, so they can be pasted as they are', () => {
    for (const file of files)
      for (const ex of shellExamples(file)) {
        expect(ex.code, `${file}:${ex.line} has a non-ASCII character`).toMatch(/^[\x20-\x7e\n\t]*$/);
        expect(ex.code, `${file}:${ex.line} has a <placeholder>`).not.toMatch(/<[a-z][a-z _-]*>/i);
      }
  });

  it('say why when they are not run, in a first comment line a reader sees', () => {
    for (const file of files)
      for (const ex of shellExamples(file).filter((e) => e.noRun))
        expect(
          ex.code,
          `${file}:${ex.line}: a no-run block starts with "# Not run by the docs test: why"`,
        ).toMatch(/^# Not run by the docs test: \S/);
  });

  it('define every variable they use, earlier on the same page', () => {
    for (const file of files) {
      const defined = new Set(ambientNames);
      for (const ex of shellExamples(file).filter((e) => !e.noRun)) {
        for (const name of assignedNames(ex.code)) defined.add(name);
        const missing = usedNames(ex.code).filter((name) => !defined.has(name));
        expect(missing, `${file}:${ex.line} uses variables no earlier block on the page sets`).toEqual([]);
      }
    }
  });

  it('put each expected status after the request it belongs to', () => {
    for (const file of files)
      for (const ex of shellExamples(file))
        for (const e of ex.expects)
          expect(e.curl, `${file}:${ex.line}: "# => ${e.status}" follows no curl`).toBeGreaterThanOrEqual(0);
  });
});
