import { Type } from 'typebox';
import { AppError, type ErrorCode, errorCatalogue } from '../../shared/errors.ts';
import type { RouteModule } from '../types.ts';

/** Problem `type` URIs dereference to a short description of the error code. */
export function problemRoutes(): RouteModule {
  return async (app) => {
    app.get(
      '/problems/:code',
      {
        config: { auth: 'none' },
        schema: { hide: true, params: Type.Object({ code: Type.String({ maxLength: 64 }) }) },
      },
      async (request) => {
        const code = request.params.code as ErrorCode;
        const entry = errorCatalogue[code];
        if (!entry) throw new AppError('not_found', `no problem type ${request.params.code}`);
        return { type: `/problems/${code}`, code, status: entry.status, title: entry.title };
      },
    );
  };
}
