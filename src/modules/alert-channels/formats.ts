import type { ChannelFormat, ChannelFormats, SecretBox, WebhookEndpoint } from '../webhooks/index.ts';
import {
  escapeDiscord,
  escapeHtml,
  escapeSlack,
  escapeTelegramMarkdownV2,
  headerSafe,
  truncate,
} from './escape.ts';
import { renderTemplate, type TemplateValues, valuesOf } from './template.ts';

/** An alert channel's credentials, sealed at rest in the endpoint's `secretSealed`. */
export type ChannelCredentials =
  | { type: 'email'; address: string }
  | { type: 'telegram'; botToken: string; chatId: string }
  | { type: 'discord'; url: string }
  | { type: 'slack'; url: string };

export function openCredentials(endpoint: WebhookEndpoint, box: SecretBox): ChannelCredentials {
  const credentials = JSON.parse(box.open(endpoint.secretSealed, endpoint.id)) as ChannelCredentials;
  if (credentials.type !== endpoint.kind) throw new Error('credentials of another channel type');
  return credentials;
}

export interface ChannelApis {
  /** Telegram Bot API base (https://api.telegram.org). */
  telegramApiUrl: string;
  /** The `From:` of alert emails. */
  emailFrom: string;
  /** The console's public URL, for `{{console_url}}` (empty when unset). */
  consoleUrl?: string;
}

const USER_AGENT = 'Meridian-Alerts/1';
const json = (body: unknown) => JSON.stringify(body);

/** The rendered message of a delivery: the rule's template (or its type's default), a test marked. */
function messageOf(body: string, consoleUrl: string | undefined) {
  const { values, template, test } = valuesOf(body, consoleUrl);
  return channelMessages(renderTemplate(template, values), values, test);
}

/**
 * One rendered message as each channel carries it, escaped for its markup (the text of a Telegram MarkdownV2
 * message, a Discord `content`, a Slack mrkdwn `text`, an email's subject and bodies). Sending and the
 * template preview both use it, so a preview shows exactly what would be sent.
 */
export function channelMessages(rendered: string, values: TemplateValues, test: boolean) {
  const text = test ? `[test] ${rendered}` : rendered;
  return {
    text,
    telegram: `*Meridian alert*\n${escapeTelegramMarkdownV2(truncate(text, 3_500))}`,
    discord: `**Meridian alert**\n${escapeDiscord(truncate(text, 900))}`,
    slack: `*Meridian alert*\n${escapeSlack(truncate(text, 3_000))}`,
    email: {
      subject: headerSafe(
        truncate(`${test ? '[test] ' : ''}Meridian alert: ${values.rule_name || values.symbol}`, 200),
      ),
      text: `${text}\n\n-- \nMeridian alert rule ${values.rule_name}. Manage your alerts in the console.`,
      html: `<p>${escapeHtml(text).replace(/\n/g, '<br>')}</p>`,
    },
  };
}

/** The domain of a `From:` (`Name <a@example.com>` or `a@example.com`), for Message-IDs. */
function domainOf(from: string): string {
  const domain = /@([A-Za-z0-9.-]+)>?\s*$/.exec(from)?.[1];
  return domain || 'meridian.invalid';
}

/** Each alert channel's wire format (webhooks keep their signed format in the webhooks module). */
export function channelFormats(apis: ChannelApis): ChannelFormats {
  const headers = { 'content-type': 'application/json', 'user-agent': USER_AGENT };

  const telegram: ChannelFormat = {
    compose({ endpoint, delivery, box }) {
      const c = openCredentials(endpoint, box);
      if (c.type !== 'telegram') throw new Error('not a telegram channel');
      const message = messageOf(delivery.body, apis.consoleUrl);
      return {
        via: 'http',
        request: {
          url: `${apis.telegramApiUrl.replace(/\/+$/, '')}/bot${c.botToken}/sendMessage`,
          headers,
          body: json({
            chat_id: c.chatId,
            text: message.telegram,
            parse_mode: 'MarkdownV2',
            link_preview_options: { is_disabled: true },
          }),
        },
      };
    },
  };

  const discord: ChannelFormat = {
    compose({ endpoint, delivery, box }) {
      const c = openCredentials(endpoint, box);
      if (c.type !== 'discord') throw new Error('not a discord channel');
      const message = messageOf(delivery.body, apis.consoleUrl);
      const url = new URL(c.url);
      url.searchParams.set('wait', 'true');
      return {
        via: 'http',
        request: {
          url: url.toString(),
          headers,
          body: json({
            content: message.discord,
            allowed_mentions: { parse: [] },
          }),
        },
      };
    },
  };

  const slack: ChannelFormat = {
    compose({ endpoint, delivery, box }) {
      const c = openCredentials(endpoint, box);
      if (c.type !== 'slack') throw new Error('not a slack channel');
      const message = messageOf(delivery.body, apis.consoleUrl);
      return {
        via: 'http',
        request: {
          url: c.url,
          headers,
          body: json({
            text: message.slack,
            mrkdwn: true,
            unfurl_links: false,
          }),
        },
      };
    },
  };

  const mailDomain = domainOf(apis.emailFrom);
  const email: ChannelFormat = {
    compose({ endpoint, delivery, box }) {
      const c = openCredentials(endpoint, box);
      if (c.type !== 'email') throw new Error('not an email channel');
      const { email } = messageOf(delivery.body, apis.consoleUrl);
      return {
        via: 'mail',
        message: {
          to: c.address,
          ...email,
          // Stable per delivery: a copy sent again after a crash is the same message to mail clients.
          messageId: `<${delivery.id}@${mailDomain}>`,
          headers: {
            'X-Meridian-Delivery': delivery.id,
            'X-Meridian-Event': delivery.eventId,
            ...(delivery.ruleId ? { 'X-Meridian-Rule': delivery.ruleId } : {}),
            'Auto-Submitted': 'auto-generated',
          },
        },
      };
    },
  };

  return { telegram, discord, slack, email };
}
