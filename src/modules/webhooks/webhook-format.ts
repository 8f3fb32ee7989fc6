import type { ChannelFormat } from './ports.ts';
import { signingSecretsOf } from './service.ts';
import { signatureHeaders } from './signature.ts';

const USER_AGENT = 'Meridian-Webhooks/1';

/** A webhook's message: the stored event as it is, signed (Standard Webhooks) with the endpoint's secrets. */
export const webhookFormat: ChannelFormat = {
  compose({ endpoint, delivery, box, sentAt }) {
    return {
      via: 'http',
      request: {
        url: endpoint.url,
        headers: {
          'content-type': 'application/json',
          'user-agent': USER_AGENT,
          ...signatureHeaders(
            signingSecretsOf(endpoint, box, sentAt),
            delivery.id,
            Math.floor(sentAt / 1000),
            delivery.body,
          ),
        },
        body: delivery.body,
      },
    };
  },
};
