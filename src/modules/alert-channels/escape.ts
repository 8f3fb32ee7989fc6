/** Escaping of plain text for each channel's markup: whatever the text holds renders as itself. */

/** Telegram Bot API MarkdownV2: every special character is backslash-escaped (Bot API, "Formatting options"). */
export const escapeTelegramMarkdownV2 = (text: string) => text.replace(/[_*[\]()~`>#+\-=|{}.!\\]/g, '\\$&');

/** Slack mrkdwn: `&`, `<` and `>` as HTML entities (Slack, "Escaping text"): no links, mentions or commands. */
export const escapeSlack = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/**
 * Discord markdown: markdown punctuation backslash-escaped, and `@` too (mentions are also disabled by
 * `allowed_mentions: { parse: [] }` in the request).
 */
export const escapeDiscord = (text: string) => text.replace(/[\\*_~`|>#\-[\]()<:@]/g, '\\$&');

/** HTML text and attribute values. */
export const escapeHtml = (text: string) =>
  text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');

/** A header value (email subject): one line, no control characters. */
export const headerSafe = (text: string) =>
  text
    // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is removed
    .replace(/[\u0000-\u001f\u007f]+/g, ' ')
    .trim();

/** At most `max` characters (code points), an ellipsis marking a cut. */
export function truncate(text: string, max: number): string {
  const chars = [...text];
  return chars.length <= max ? text : `${chars.slice(0, max - 1).join('')}…`;
}
