/**
 * Alert channels — email, Telegram, Discord, Slack — and the message templates rules render for them. The
 * channels are endpoints of the webhooks outbox: one sender, one retry schedule, one address policy and one
 * delivery log for every channel; this module adds their formats, credentials and address verification.
 */
export { escapeDiscord, escapeHtml, escapeSlack, escapeTelegramMarkdownV2 } from './escape.ts';
export { type ChannelApis, type ChannelCredentials, channelFormats, channelMessages } from './formats.ts';
export { type PreviewInput, previewMessage } from './preview.ts';
export {
  ALERT_CHANNEL_TYPES,
  type AlertChannelType,
  type AlertChannelsService,
  type CreateChannel,
  createAlertChannelsService,
  presentChannel,
} from './service.ts';
export { CHANNEL_TEST_TEMPLATE, CHANNEL_TESTS_PER_HOUR } from './test-message.ts';
export {
  defaultTemplate,
  MAX_TEMPLATE_LENGTH,
  renderTemplate,
  TEMPLATE_VARIABLES,
  type TemplateVariable,
  unknownVariables,
  valuesOf,
} from './template.ts';
