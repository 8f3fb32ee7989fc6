import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type OrgRole, rolePermissions } from '../../src/modules/accounts/index.ts';
import { type TestApp, type TestUser, createTestApp } from '../harness/app.ts';
import { webhookEnv } from '../webhooks/harness.ts';
import { type Json, orgClient } from './client.ts';

const orgRoles: OrgRole[] = ['owner', 'admin', 'member', 'viewer'];
/** What each organization role may write there (owner and admin: a member's data rights). */
const writes = (role: OrgRole) => role !== 'viewer';

interface Actor {
  user: TestUser;
  cookie: string;
  /** A token issued in the organization. */
  token: string;
  tokenId: string;
}

interface Org {
  id: string;
  actors: Record<OrgRole, Actor>;
  /** One resource of each type, made by the owner's token there. */
  rule: string;
  channel: string;
  webhook: string;
  label: string;
  row: string;
}

/**
 * Organization isolation: two organizations, every resource type, every role. Every object-level probe of one
 * organization's resources from the other answers 404 (403 where the role lacks the permission anyway), and
 * inside an organization each role may do what the permission table says.
 */
describe('organization isolation: two organizations × resource types × roles', () => {
  let t: TestApp;
  const orgs = {} as Record<'A' | 'B', Org>;

  const { login, asSession, asToken, ok } = orgClient(() => t);
  const inject = (o: InjectOptions) => t.app.inject(o);

  async function setUpOrg(name: string, address: string): Promise<Org> {
    const ownerUser = await t.user('member');
    const ownerCookie = await login(ownerUser);
    const org = ok(await asSession(ownerCookie, 'POST', '/api/organizations', { name }), 201);
    const actors = {} as Record<OrgRole, Actor>;
    for (const role of orgRoles) {
      const user = role === 'owner' ? ownerUser : await t.user('member');
      const cookie = role === 'owner' ? ownerCookie : await login(user);
      if (role !== 'owner') {
        const invited = ok(
          await asSession(ownerCookie, 'POST', `/api/organizations/${org.id}/invitations`, { role }),
          201,
        );
        const joined = ok(
          await asSession(cookie, 'POST', '/api/invitations/accept', { token: invited.token }),
          200,
        );
        expect(joined).toMatchObject({ id: org.id, role });
      }
      const token = ok(
        await asSession(cookie, 'POST', '/api/account/tokens', { name: `${name}-${role}` }, org.id),
        201,
      );
      actors[role] = { user, cookie, token: token.token, tokenId: token.details.id };
    }
    const owner = actors.owner.token;
    const rule = ok(
      await asToken(owner, 'POST', '/api/alerts', {
        type: 'price',
        symbol: 'BTCUSDT',
        condition: { op: 'above', value: 1e9 },
      }),
      201,
    );
    const channel = ok(
      await asToken(owner, 'POST', '/api/alert-channels', {
        type: 'telegram',
        botToken: '123456:ABCdefGHIjklMNOpqrSTUvwxYZ012345678',
        chatId: '-1001234',
      }),
      201,
    );
    const webhook = ok(
      await asToken(owner, 'POST', '/api/webhooks', {
        url: 'http://127.0.0.1:9/hook',
        events: ['alert.triggered'],
      }),
      201,
    );
    const label = ok(
      await asToken(owner, 'POST', '/api/labels', { kind: 'fund', chain: 'Ethereum', address, name }),
      201,
    );
    ok(
      await inject({
        method: 'POST',
        url: '/api/portfolio/import',
        headers: { authorization: `Bearer ${owner}`, 'content-type': 'application/json' },
        payload: JSON.stringify({ rows: [{ asset: 'ETH', quantity: '1' }] }),
      }),
      201,
    );
    const rows = ok(await asToken(owner, 'GET', '/api/portfolio/rows'), 200);
    return {
      id: org.id,
      actors,
      rule: rule.id,
      channel: channel.id,
      webhook: webhook.id,
      label: label.id,
      row: rows.data[0].id,
    };
  }

  beforeAll(async () => {
    t = await createTestApp({ env: { ...webhookEnv, MERIDIAN_RATE_LIMIT_STANDARD: '100000' } });
    orgs.A = await setUpOrg('Alpha', '0x1111111111111111111111111111111111111111');
    orgs.B = await setUpOrg('Beta', '0x2222222222222222222222222222222222222222');
  }, 120_000);
  afterAll(() => t?.close());

  /** Every object-level probe of `other`'s resources, as one role of `own` (by token, and by session). */
  async function crossProbes(own: Org, other: Org, role: OrgRole) {
    const { token, cookie } = own.actors[role];
    const byToken: Array<[InjectOptions['method'], string, unknown?]> = [
      ['GET', `/api/alerts/${other.rule}`],
      ['PATCH', `/api/alerts/${other.rule}`, { name: 'taken' }],
      ['DELETE', `/api/alerts/${other.rule}`],
      ['POST', `/api/alerts/${other.rule}/test`],
      ['GET', `/api/alerts/${other.rule}/deliveries`],
      ['GET', `/api/alert-channels/${other.channel}`],
      ['DELETE', `/api/alert-channels/${other.channel}`],
      ['POST', `/api/alert-channels/${other.channel}/verify`, { code: '000000' }],
      ['GET', `/api/webhooks/${other.webhook}`],
      ['DELETE', `/api/webhooks/${other.webhook}`],
      ['POST', `/api/webhooks/${other.webhook}/rotate`],
      ['GET', `/api/webhooks/${other.webhook}/deliveries`],
      ['DELETE', `/api/labels/${other.label}`],
      ['DELETE', `/api/portfolio/rows/${other.row}`],
    ];
    const results: Array<{ probe: string; status: number }> = [];
    for (const [method, url, payload] of byToken) {
      const res = await asToken(token, method, url, payload);
      results.push({ probe: `${role} token ${method} ${url}`, status: res.statusCode });
    }
    const bySession: Array<[InjectOptions['method'], string]> = [
      ['DELETE', `/api/account/tokens/${other.actors.owner.tokenId}`],
      ['POST', `/api/account/tokens/${other.actors.owner.tokenId}/rotate`],
      ['DELETE', `/api/account/tokens/${other.actors[role].tokenId}`],
    ];
    for (const [method, url] of bySession) {
      const res = await asSession(cookie, method, url, undefined, own.id);
      results.push({ probe: `${role} session ${method} ${url}`, status: res.statusCode });
    }
    // Acting in the other organization at all: a session naming it, a token naming it, its own pages.
    for (const [probe, res] of [
      ['session in other org', await asSession(cookie, 'GET', '/api/alerts', undefined, other.id)],
      [
        'token naming other org',
        await inject({
          url: '/api/alerts',
          headers: { authorization: `Bearer ${token}`, 'meridian-organization': other.id },
        }),
      ],
      ['get other org', await asSession(cookie, 'GET', `/api/organizations/${other.id}`)],
      ['other org members', await asSession(cookie, 'GET', `/api/organizations/${other.id}/members`)],
      ['other org invitations', await asSession(cookie, 'GET', `/api/organizations/${other.id}/invitations`)],
      [
        'invite into other org',
        await asSession(cookie, 'POST', `/api/organizations/${other.id}/invitations`, { role: 'admin' }),
      ],
      [
        'rename other org',
        await asSession(cookie, 'PATCH', `/api/organizations/${other.id}`, { name: 'taken' }),
      ],
      [
        'remove other owner',
        await asSession(
          cookie,
          'DELETE',
          `/api/organizations/${other.id}/members/${other.actors.owner.user.id}`,
        ),
      ],
    ] as const)
      results.push({ probe: `${role} ${probe}`, status: res.statusCode });
    return results;
  }

  it('0 cross-organization successes: every probe, both directions, every role', async () => {
    const all: Array<{ probe: string; status: number }> = [];
    for (const [own, other] of [
      [orgs.A, orgs.B],
      [orgs.B, orgs.A],
    ] as const)
      for (const role of orgRoles) all.push(...(await crossProbes(own, other, role)));
    const successes = all.filter((r) => r.status < 400);
    expect(successes).toEqual([]);
    // Not found, or forbidden where the role (or a token naming another organization) is refused first.
    for (const r of all) expect([403, 404], r.probe).toContain(r.status);
    // A role that may write is never told "forbidden" about another organization's object: it does not exist.
    for (const r of all.filter(
      (x) => / token (DELETE|POST|PATCH) /.test(x.probe) && !x.probe.startsWith('viewer'),
    ))
      expect(r.status, r.probe).toBe(404);
    expect(all.length).toBe(2 * orgRoles.length * 25);
  });

  it('lists and usage show only the organization’s own resources', async () => {
    for (const [own, other] of [
      [orgs.A, orgs.B],
      [orgs.B, orgs.A],
    ] as const)
      for (const role of orgRoles) {
        const { token, cookie } = own.actors[role];
        const ids = (url: string) =>
          asToken(token, 'GET', url).then((r) => ok(r, 200).data.map((x: Json) => x.id) as string[]);
        expect(await ids('/api/alerts')).toEqual([own.rule]);
        expect(await ids('/api/alert-channels')).toEqual([own.channel]);
        expect(await ids('/api/webhooks')).toEqual([own.webhook]);
        expect(await ids('/api/labels')).toEqual([own.label]);
        expect(await ids('/api/portfolio/rows')).toEqual([own.row]);
        const tokens = ok(await asSession(cookie, 'GET', '/api/account/tokens', undefined, own.id), 200);
        expect(tokens.data.map((x: Json) => x.id)).toEqual([own.actors[role].tokenId]);
        const usage = ok(await asToken(token, 'GET', '/api/account/usage'), 200);
        const clients = JSON.stringify(usage);
        for (const r of orgRoles) expect(clients).not.toContain(other.actors[r].tokenId);
        const account = ok(await asToken(token, 'GET', '/api/account'), 200);
        expect(account.organization).toEqual({ id: own.id, role });
      }
  });

  it('inside an organization each role reads everything and writes as the permission table says', async () => {
    for (const org of [orgs.A, orgs.B])
      for (const role of orgRoles) {
        const { token } = org.actors[role];
        for (const url of [
          `/api/alerts/${org.rule}`,
          `/api/alert-channels/${org.channel}`,
          `/api/webhooks/${org.webhook}`,
          '/api/portfolio',
          '/api/labels',
        ])
          ok(await asToken(token, 'GET', url), 200);
        const account = ok(await asToken(token, 'GET', '/api/account'), 200);
        expect(account.permissions).toEqual([...rolePermissions[writes(role) ? 'member' : 'viewer']].sort());
        const created = await asToken(token, 'POST', '/api/alerts', {
          type: 'price',
          symbol: 'ETHUSDT',
          condition: { op: 'above', value: 1e9 },
        });
        const label = await asToken(token, 'POST', '/api/labels', {
          kind: 'fund',
          chain: 'Ethereum',
          address: '0x3333333333333333333333333333333333333333',
          name: role,
        });
        const hook = await asToken(token, 'POST', '/api/webhooks', {
          url: 'http://127.0.0.1:9/other',
          events: ['alert.triggered'],
        });
        if (writes(role)) {
          // Another member's objects are the organization's: any writer may change them.
          expect(created.statusCode, created.body).toBe(201);
          expect(label.statusCode, label.body).toBe(201);
          expect(hook.statusCode, hook.body).toBe(201);
          ok(await asToken(token, 'DELETE', `/api/alerts/${created.json().id}`), 204);
          ok(await asToken(token, 'DELETE', `/api/labels/${label.json().id}`), 204);
          ok(await asToken(token, 'DELETE', `/api/webhooks/${hook.json().id}`), 204);
        } else {
          for (const res of [created, label, hook]) expect(res.statusCode, res.body).toBe(403);
          expect((await asToken(token, 'DELETE', `/api/alerts/${org.rule}`)).statusCode).toBe(403);
          expect((await asToken(token, 'DELETE', `/api/portfolio/rows/${org.row}`)).statusCode).toBe(403);
        }
      }
  });

  it('the rate-limit window and the plan are the organization’s, shared by its members', async () => {
    const a = orgs.A.actors;
    const before = ok(await asToken(a.owner.token, 'GET', '/api/account/usage'), 200).quota.used;
    for (let i = 0; i < 5; i++) ok(await asToken(a.viewer.token, 'GET', '/api/account'), 200);
    const after = ok(await asToken(a.owner.token, 'GET', '/api/account/usage'), 200).quota.used;
    expect(after - before).toBeGreaterThanOrEqual(6);
    const other = ok(await asToken(orgs.B.actors.owner.token, 'GET', '/api/account/usage'), 200).quota.used;
    expect(other).toBeLessThan(after);
  });
});
