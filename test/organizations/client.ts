import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import type { TestApp, TestUser } from '../harness/app.ts';

// biome-ignore lint/suspicious/noExplicitAny: answers are read as plain JSON
export type Json = Record<string, any>;

/** Requests as a console session (optionally in an organization, by header) or a token, against one test app. */
export function orgClient(app: () => TestApp) {
  const inject = (o: InjectOptions) => app().app.inject(o);
  const withBody = (payload: unknown) => (payload === undefined ? {} : { payload: payload as object });
  return {
    async login(user: TestUser): Promise<string> {
      const res = await inject({
        method: 'POST',
        url: '/auth/login',
        payload: { email: user.email, password: user.password },
      });
      expect(res.statusCode, res.body).toBe(200);
      return `meridian_session=${res.cookies.find((c) => c.name === 'meridian_session')!.value}`;
    },
    asSession: (
      cookie: string,
      method: InjectOptions['method'],
      url: string,
      payload?: unknown,
      org?: string,
    ) =>
      inject({
        method,
        url,
        headers: { cookie, ...(org ? { 'meridian-organization': org } : {}) },
        ...withBody(payload),
      }),
    asToken: (token: string, method: InjectOptions['method'], url: string, payload?: unknown) =>
      inject({ method, url, headers: { authorization: `Bearer ${token}` }, ...withBody(payload) }),
    ok(res: LightMyRequestResponse, status: number): Json {
      expect(res.statusCode, `${res.statusCode} ${res.body}`).toBe(status);
      return (res.body ? res.json() : {}) as Json;
    },
  };
}
