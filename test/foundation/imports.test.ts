import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * The import rules of docs/architecture.md, checked over the TypeScript import graph of `src/` (every
 * `import`, `export … from`, `import()` and `import('…').Type`, type-only ones included). A small script
 * rather than dependency-cruiser: the rules are this project's own (layers, module faces, the one exception
 * for table declarations), and the compiler already in the project reads the imports. The same file checks
 * the one naming rule a parser can see: a module file of declarations only is named for its kind.
 */

const root = resolve(import.meta.dirname, '../..');

/** Which top-level folders of src/ each folder may import (its own always). */
const allowed: Record<string, readonly string[]> = {
  main: ['app', 'http', 'config', 'adapters', 'modules', 'observability', 'shared'],
  app: ['config', 'adapters', 'modules', 'observability', 'shared'],
  http: ['config', 'modules', 'observability', 'shared'],
  adapters: ['modules', 'shared'],
  modules: ['adapters/db', 'shared'],
  observability: ['shared'],
  config: ['shared'],
  shared: [],
};

type ImportGraph = Map<string, string[]>;

/** File (relative to the repository) → the files it imports, for every non-test `.ts` file under src/. */
function importGraph(): ImportGraph {
  const graph: ImportGraph = new Map();
  const walk = (dir: string) => {
    for (const entry of readdirSync(join(root, dir), { withFileTypes: true })) {
      const path = `${dir}/${entry.name}`;
      if (entry.isDirectory()) walk(path);
      else if (path.endsWith('.ts') && !path.endsWith('.test.ts')) {
        const { importedFiles } = ts.preProcessFile(readFileSync(join(root, path), 'utf8'), true, true);
        graph.set(
          path,
          importedFiles
            .map((i) => i.fileName)
            .filter((name) => name.startsWith('.'))
            .map((name) => relative(root, resolve(root, dirname(path), name))),
        );
      }
    }
  };
  walk('src');
  return graph;
}

const layerOf = (file: string) => file.split('/')[1]!;
/** `modules/<name>` for a module file, else undefined. */
const moduleOf = (file: string) => (file.startsWith('src/modules/') ? file.split('/')[2] : undefined);

/** Every import that breaks a rule, as `from -> to: why`. */
function violations(graph: ImportGraph): string[] {
  const found: string[] = [];
  for (const [from, targets] of graph) {
    const layer = layerOf(from);
    for (const to of targets) {
      const target = layerOf(to);
      if (target !== layer) {
        const may = allowed[layer] ?? [];
        const ok = may.some((a) => a === target || to.startsWith(`src/${a}/`));
        if (!ok) found.push(`${from} -> ${to}: ${layer} may not import ${target}`);
      }
      const targetModule = moduleOf(to);
      if (targetModule && moduleOf(from) !== targetModule) {
        const face = `src/modules/${targetModule}/index.ts`;
        // The database adapter joins every module's table declarations into one schema type.
        const tables =
          from === 'src/adapters/db/database.ts' && to === `src/modules/${targetModule}/tables.ts`;
        if (to !== face && !tables) found.push(`${from} -> ${to}: import ${face} instead (a module's face)`);
      }
    }
  }
  for (const cycle of cycles(graph)) found.push(`import cycle: ${cycle.join(' -> ')}`);
  const modules = new Map<string, string[]>();
  for (const [from, targets] of graph) {
    const m = moduleOf(from);
    if (!m) continue;
    const deps = modules.get(`src/modules/${m}`) ?? [];
    for (const to of targets) {
      const t = moduleOf(to);
      if (t && t !== m) deps.push(`src/modules/${t}`);
    }
    modules.set(`src/modules/${m}`, deps);
  }
  for (const cycle of cycles(modules)) found.push(`module cycle: ${cycle.join(' -> ')}`);
  return found;
}

/** The strongly connected components of more than one node (Tarjan). */
function cycles(graph: ImportGraph): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string) => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!graph.has(w)) continue;
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1) found.push(component.reverse());
    }
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return found;
}

/**
 * The names a module file without behaviour may have (docs/architecture.md, "Naming inside a module"): a file
 * that declares only types and constants is one of these kinds, so a port is in `ports.ts` and domain types
 * are in `types.ts` rather than in a file named after something else (`source.ts`, `model.ts`, `fields.ts`).
 */
const declarationOnlyNames = new Set([
  'index.ts',
  'types.ts',
  'ports.ts',
  'repository.ts',
  'tables.ts',
  'topics.ts',
  'present.ts',
]);

/** Whether a file holds any code that runs: a function, method, accessor or class. */
function hasBehaviour(text: string): boolean {
  const visit = (node: ts.Node): boolean =>
    ts.isFunctionLike(node) && !ts.isFunctionTypeNode(node) && !ts.isConstructorTypeNode(node)
      ? !isSignature(node)
      : ts.isClassLike(node) || (ts.forEachChild(node, visit) ?? false);
  return visit(ts.createSourceFile('file.ts', text, ts.ScriptTarget.Latest));
}

/** Declarations without a body: interface members and overload signatures. */
const isSignature = (node: ts.SignatureDeclaration) =>
  ts.isMethodSignature(node) ||
  ts.isCallSignatureDeclaration(node) ||
  ts.isConstructSignatureDeclaration(node) ||
  ts.isIndexSignatureDeclaration(node) ||
  ((ts.isFunctionDeclaration(node) || ts.isMethodDeclaration(node)) && node.body === undefined);

/** Every non-test `.ts` file under src/modules/, relative to the repository, with its text. */
function moduleFiles(): Map<string, string> {
  const files = new Map<string, string>();
  const walk = (dir: string) => {
    for (const entry of readdirSync(join(root, dir), { withFileTypes: true })) {
      const path = `${dir}/${entry.name}`;
      if (entry.isDirectory()) walk(path);
      else if (path.endsWith('.ts') && !path.endsWith('.test.ts'))
        files.set(path, readFileSync(join(root, path), 'utf8'));
    }
  };
  walk('src/modules');
  return files;
}

/** Every module file of declarations only whose name is not one of the declaration kinds. */
function namingViolations(files: Map<string, string>): string[] {
  const found: string[] = [];
  for (const [path, text] of files) {
    const name = path.slice(path.lastIndexOf('/') + 1);
    if (!declarationOnlyNames.has(name) && !hasBehaviour(text))
      found.push(`${path}: types and constants only, so one of ${[...declarationOnlyNames].join(', ')}`);
  }
  return found;
}

describe('import rules (docs/architecture.md)', () => {
  it('src/ has no layer violation, no deep import past a module face and no cycle', () => {
    const graph = importGraph();
    expect(graph.size).toBeGreaterThan(100);
    expect(violations(graph)).toEqual([]);
  });

  it('the checker reports each kind of violation', () => {
    const graph: ImportGraph = new Map([
      ['src/shared/a.ts', ['src/app/container.ts']],
      ['src/http/routes/x.ts', ['src/app/container.ts', 'src/modules/market/service.ts']],
      ['src/modules/market/service.ts', ['src/modules/identifiers/index.ts']],
      ['src/modules/identifiers/index.ts', ['src/modules/market/index.ts']],
      ['src/modules/market/index.ts', ['src/modules/market/service.ts']],
      ['src/adapters/db/database.ts', ['src/modules/market/tables.ts']],
      ['src/http/a.ts', ['src/http/b.ts']],
      ['src/http/b.ts', ['src/http/a.ts']],
    ]);
    expect(violations(graph)).toEqual([
      'src/shared/a.ts -> src/app/container.ts: shared may not import app',
      'src/http/routes/x.ts -> src/app/container.ts: http may not import app',
      "src/http/routes/x.ts -> src/modules/market/service.ts: import src/modules/market/index.ts instead (a module's face)",
      'import cycle: src/modules/market/service.ts -> src/modules/identifiers/index.ts -> src/modules/market/index.ts',
      'import cycle: src/http/a.ts -> src/http/b.ts',
      'module cycle: src/modules/market -> src/modules/identifiers',
    ]);
  });
});

describe('module file names (docs/architecture.md)', () => {
  it('a module file that declares only types and constants is named for its kind (types.ts, ports.ts, …)', () => {
    const files = moduleFiles();
    expect(files.size).toBeGreaterThan(50);
    expect(namingViolations(files)).toEqual([]);
  });

  it('the naming check tells declarations from behaviour', () => {
    const files = new Map([
      [
        'src/modules/market/source.ts',
        'export interface MarketSource { start(sink: (e: number) => void): void }',
      ],
      [
        'src/modules/webhooks/model.ts',
        "export const OUTCOMES = ['ok'] as const;\nexport type Outcome = string;",
      ],
      ['src/modules/market/ports.ts', 'export interface MarketSource { stop(): Promise<void> }'],
      [
        'src/modules/events/event.ts',
        'export interface E { id: string }\nexport const make = (): E => ({ id: "" });',
      ],
      ['src/modules/onchain/ports.ts', 'export const silent = { info() {} };'],
      ['src/modules/market/series.ts', 'export class Series {}'],
      ['src/modules/x/overload.ts', 'export function f(a: string): string;'],
    ]);
    expect(namingViolations(files).map((v) => v.slice(0, v.indexOf(':')))).toEqual([
      'src/modules/market/source.ts',
      'src/modules/webhooks/model.ts',
      'src/modules/x/overload.ts',
    ]);
  });
});
