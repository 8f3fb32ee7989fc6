import { Type } from 'typebox';

/** Shared response schemas for OpenAPI. */
export const ProblemSchema = Type.Object(
  {
    type: Type.String(),
    title: Type.String(),
    status: Type.Integer(),
    detail: Type.String(),
    code: Type.String(),
    requestId: Type.String(),
    instance: Type.String(),
    errors: Type.Optional(Type.Array(Type.Object({ pointer: Type.String(), message: Type.String() }))),
    supported: Type.Optional(
      Type.Array(Type.String(), { description: 'unsupported_symbol: the symbols this server supports' }),
    ),
  },
  { $id: 'Problem', description: 'RFC 9457 problem document' },
);

/** The problem responses every authenticated route can answer with. */
export const authProblems = {
  401: ProblemSchema,
  403: ProblemSchema,
  429: ProblemSchema,
} as const;
