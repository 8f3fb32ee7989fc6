import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp, TestUser } from '../harness/app.ts';
import { createWebhookApp } from './harness.ts';

const HOSTILE = '<b>x</b> *bold* _it_ [link](http://evil.example) <!channel> @everyone & `code`';

describe('POST /api/alert-channels/preview: a template rendered for every channel, nothing sent', () => {
  let t: TestApp;
  let user: TestUser;
  const preview = (payload: object, headers = user.auth) =>
    t.app.inject({ method: 'POST', url: '/api/alert-channels/preview', headers, payload });

  beforeAll(async () => {
    t = await createWebhookApp('pglite', { env: { MERIDIAN_CONSOLE_URL: 'https://meridian.example' } });
    user = await t.user('member');
  });
  afterAll(() => t.close());

  it('fills the variables from the rule being edited, firing at its own level', async () => {
    const res = await preview({
      template: '{{symbol}} crossed {{condition}} at {{price}}: {{rule_name}} {{console_url}}',
      ruleType: 'price',
      rule: { name: 'breakout', symbol: 'BTCUSDT', condition: { op: 'above', value: 100000 } },
    });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body.unknownVariables).toEqual([]);
    expect(body.values).toMatchObject({ symbol: 'BTCUSDT', price: '100000', condition: 'above 100000' });
    expect(body.text).toBe(
      'BTCUSDT crossed above 100000 at 100000: breakout https://meridian.example/alerts?rule=alr_preview',
    );
    expect(body.email.subject).toBe('Meridian alert: breakout');
    expect(body.slack).toBe(`*Meridian alert*\n${body.text}`);
  });

  it('escapes markup from any value for each channel, as a sent message is escaped', async () => {
    const body = (
      await preview({ rule: { name: HOSTILE, symbol: 'BTCUSDT', condition: { op: 'below', value: 1 } } })
    ).json();
    expect(body.template).toContain('{{rule_name}}'); // the price rule's default
    expect(body.text).toContain(HOSTILE);
    expect(body.telegram).toContain('\\*bold\\* \\_it\\_');
    expect(body.telegram).toContain('\\[link\\]\\(http://evil\\.example\\)');
    expect(body.telegram).not.toContain(' *bold*');
    expect(body.slack).toContain('&lt;!channel&gt;');
    expect(body.slack).not.toContain('<!channel>');
    expect(body.discord).toContain('\\@everyone');
    expect(body.email.html).toContain('&lt;b&gt;x&lt;/b&gt;');
    expect(body.email.html).not.toContain('<b>x</b>');
  });

  it('lists placeholders that name no variable (saving would be refused) and refuses unknown fields', async () => {
    const body = (await preview({ template: '{{symbol}} {{nope}} {{ price }}' })).json();
    expect(body.unknownVariables).toEqual(['nope']);
    const extra = await preview({ template: 'x', colour: 'red' });
    expect(extra.statusCode).toBe(400);
    expect(extra.headers['content-type']).toContain('application/problem+json');
    const tooLong = await preview({ template: 'x'.repeat(1_001) });
    expect(tooLong.statusCode).toBe(400);
    expect((await preview({ template: 'x' }, {} as never)).statusCode).toBe(401);
  });
});
