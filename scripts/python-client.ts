// `npm run sdk:python`: regenerates the Python SDK's models and operations
// (clients/python/meridian_client/_generated.py) from docs/openapi.json.
// test/sdk/python-drift.test.ts runs the same generation and fails when the committed file differs.
// Hand-written because no maintained generator emits standard-library-only dataclasses (the known ones
// need pydantic or attrs, and the SDK must run on a bare Debian python3).
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const pythonModelsPath = fileURLToPath(
  new URL('../clients/python/meridian_client/_generated.py', import.meta.url),
);

type Schema = {
  $ref?: string;
  type?: string | string[];
  enum?: unknown[];
  anyOf?: Schema[];
  oneOf?: Schema[];
  allOf?: Schema[];
  items?: Schema;
  properties?: Record<string, Schema>;
  required?: string[];
  additionalProperties?: boolean | Schema;
  description?: string;
};
type Parameter = { name: string; in: string; required?: boolean; schema?: Schema; description?: string };
type Operation = {
  operationId?: string;
  summary?: string;
  description?: string;
  parameters?: Parameter[];
  requestBody?: { required?: boolean; content: Record<string, { schema: Schema }> };
  responses: Record<string, { content?: Record<string, { schema: Schema }> }>;
};
type Document = {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, Schema> };
};

const PY_KEYWORDS = new Set(
  'False None True and as assert async await break class continue def del elif else except finally for from global if import in is lambda nonlocal not or pass raise return try while with yield'.split(
    ' ',
  ),
);

export function snake(name: string): string {
  const s = name
    .replace(/[^A-Za-z0-9]+/g, '_')
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1_$2')
    .toLowerCase()
    .replace(/^_+|_+$/g, '');
  const safe = /^[0-9]/.test(s) ? `n_${s}` : s;
  return PY_KEYWORDS.has(safe) ? `${safe}_` : safe;
}

function pascal(name: string): string {
  return name
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((part) => part[0]!.toUpperCase() + part.slice(1))
    .join('');
}

function pyString(text: string): string {
  return JSON.stringify(text);
}

function docLine(text: string | undefined): string {
  return (text ?? '').replace(/\s+/g, ' ').replace(/"""/g, "'''").trim();
}

/** Generates the module text: one dataclass per object schema (nested ones named after their parent). */
export function generatePython(document: Document): string {
  const classes: string[] = [];
  const emitted = new Set<string>();

  const refName = (ref: string) => pascal(ref.split('/').at(-1)!);

  // A type expression plus the converter call that builds it from JSON.
  const typeOf = (schema: Schema, hint: string): { py: string; conv: string } => {
    if (schema.$ref) {
      const name = refName(schema.$ref);
      const target = document.components.schemas[schema.$ref.split('/').at(-1)!]!;
      if (isObjectClass(target)) return { py: name, conv: `_obj(${pyString(name)})` };
      return typeOf(target, name);
    }
    const union = schema.anyOf ?? schema.oneOf;
    if (union) {
      const nonNull = union.filter((s) => s.type !== 'null');
      const nullable = nonNull.length < union.length;
      if (nonNull.length === 1) {
        const inner = typeOf(nonNull[0]!, hint);
        return nullable ? { py: `Optional[${inner.py}]`, conv: `_opt(${inner.conv})` } : inner;
      }
      const variants = nonNull.map((s, i) => typeOf(s, `${hint}${i + 1}`));
      const py = `Union[${[...new Set(variants.map((v) => v.py))].join(', ')}]`;
      return { py: nullable ? `Optional[${py}]` : py, conv: '_any' };
    }
    if (schema.allOf?.length === 1) return typeOf(schema.allOf[0]!, hint);
    if (schema.enum) {
      return { py: `Literal[${schema.enum.map((v) => JSON.stringify(v)).join(', ')}]`, conv: '_any' };
    }
    const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
    switch (type) {
      case 'string':
        return { py: 'str', conv: '_any' };
      case 'integer':
        return { py: 'int', conv: '_any' };
      case 'number':
        return { py: 'float', conv: '_num' };
      case 'boolean':
        return { py: 'bool', conv: '_any' };
      case 'array': {
        const item = typeOf(schema.items ?? {}, `${hint}Item`);
        return { py: `List[${item.py}]`, conv: `_list(${item.conv})` };
      }
      case 'object': {
        if (isObjectClass(schema)) {
          emitClass(hint, schema);
          return { py: hint, conv: `_obj(${pyString(hint)})` };
        }
        if (typeof schema.additionalProperties === 'object') {
          const value = typeOf(schema.additionalProperties, `${hint}Value`);
          return { py: `Dict[str, ${value.py}]`, conv: `_map(${value.conv})` };
        }
        return { py: 'Dict[str, Any]', conv: '_any' };
      }
      default:
        return { py: 'Any', conv: '_any' };
    }
  };

  function isObjectClass(schema: Schema): boolean {
    return (
      (schema.type === 'object' || (!schema.type && !!schema.properties)) &&
      !!schema.properties &&
      Object.keys(schema.properties).length > 0
    );
  }

  function emitClass(name: string, schema: Schema): void {
    if (emitted.has(name)) return;
    emitted.add(name);
    const required = new Set(schema.required ?? []);
    const fields = Object.entries(schema.properties ?? {}).map(([json, prop]) => {
      const t = typeOf(prop, `${name}${pascal(json)}`);
      return { json, py: snake(json), type: t, required: required.has(json), doc: docLine(prop.description) };
    });
    // Required fields first: dataclass fields with defaults must follow those without.
    fields.sort((a, b) => Number(b.required) - Number(a.required));
    const lines = ['', '', '@dataclass', `class ${name}(_Model):`];
    lines.push(`    """${docLine(schema.description) || name}"""`, '');
    for (const f of fields) {
      const annotation = f.required ? f.type.py : `Optional[${f.type.py}]`;
      const comment = f.doc ? `  # ${f.doc.slice(0, 100)}` : '';
      lines.push(`    ${f.py}: ${annotation}${f.required ? '' : ' = None'}${comment}`);
    }
    lines.push(
      '    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)',
      '',
      '    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (',
      ...fields.map((f) => `        (${pyString(f.py)}, ${pyString(f.json)}, ${f.type.conv}),`),
      '    )',
    );
    if (fields.some((f) => f.json === 'data' && f.type.py.startsWith('List['))) {
      lines.push(
        '',
        '    def to_records(self) -> List[Dict[str, Any]]:',
        '        """The `data` rows as plain dicts with the JSON field names (`pandas.DataFrame.from_records`)."""',
        '        return [_plain(row) for row in self.data]',
      );
    }
    classes.push(lines.join('\n'));
  }

  for (const [name, schema] of Object.entries(document.components.schemas)) {
    if (isObjectClass(schema)) emitClass(pascal(name), schema);
  }

  const operations: string[] = [];
  for (const [path, item] of Object.entries(document.paths)) {
    for (const [method, op] of Object.entries(item)) {
      if (!op.operationId) continue;
      operations.push(emitOperation(path, method.toUpperCase(), op));
    }
  }

  function emitOperation(path: string, method: string, op: Operation): string {
    const params = (op.parameters ?? []).filter((p) => p.in === 'path' || p.in === 'query');
    const pathParams = params.filter((p) => p.in === 'path');
    const queryParams = params.filter((p) => p.in === 'query');
    const success = Object.entries(op.responses).find(([status]) => status.startsWith('2'));
    const schema = success?.[1].content?.['application/json']?.schema;
    const result = schema
      ? typeOf(schema, `${pascal(op.operationId!)}Response`)
      : { py: 'None', conv: '_none' };
    const bodyContent = op.requestBody?.content;
    const hasBody = !!bodyContent;
    const args = ['self', ...pathParams.map((p) => `${snake(p.name)}: str`)];
    if (hasBody) args.push(op.requestBody?.required ? 'body: Any' : 'body: Any = None');
    const kw = queryParams.map((p) => `${snake(p.name)}: Optional[${typeOf(p.schema ?? {}, 'Q').py}] = None`);
    if (kw.length) args.push('*', ...kw);
    args.push('headers: Optional[Dict[str, str]] = None');
    const pathExpr = pathParams.length
      ? `_path(${pyString(path)}, {${pathParams.map((p) => `${pyString(p.name)}: ${snake(p.name)}`).join(', ')}})`
      : pyString(path);
    const query = `{${queryParams.map((p) => `${pyString(p.name)}: ${snake(p.name)}`).join(', ')}}`;
    const doc = docLine(op.summary ?? op.description) || op.operationId!;
    const contentTypes = bodyContent ? Object.keys(bodyContent) : [];
    return [
      '',
      `    def ${snake(op.operationId!)}(${args.join(', ')}) -> ApiResponse[${result.py}]:`,
      `        """${method} ${path}: ${doc}"""`,
      `        return self._call(${pyString(method)}, ${pathExpr}, ${query}, ${hasBody ? 'body' : 'None'}, ${result.conv}, headers, ${contentTypes.includes('text/csv') ? 'True' : 'False'})`,
    ].join('\n');
  }

  return `# Generated from docs/openapi.json by scripts/python-client.ts (npm run sdk:python). Do not edit.
# fmt: off
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, ClassVar, Dict, List, Literal, Optional, Tuple, Union

from ._model import ApiResponse, _Model, _any, _list, _map, _none, _num, _obj, _opt, _path, _plain
${classes.join('\n')}


class _Operations:
    """One method per API operation; query parameters are keyword-only (a misspelled one is a TypeError)."""

    def _call(self, method: str, path: str, query: Dict[str, Any], body: Any, convert: Callable[[Any], Any], headers: Optional[Dict[str, str]], csv_body: bool) -> Any:  # pragma: no cover - provided by the client
        raise NotImplementedError
${operations.join('\n')}
`;
}

export function pythonModels(): string {
  const document = JSON.parse(readFileSync(new URL('../docs/openapi.json', import.meta.url), 'utf8'));
  return generatePython(document);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  writeFileSync(pythonModelsPath, pythonModels());
  process.stdout.write(`wrote ${pythonModelsPath}\n`);
}
