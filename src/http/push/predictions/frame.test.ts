import type WebSocket from 'ws';
import * as wsModule from 'ws';
import { describe, expect, it } from 'vitest';
import { preFramingAvailable, sharedTextFrame, writeSharedFrame } from './frame.ts';

/** A stand-in for a server-side `ws` socket with the internals frame.ts reads. */
function fakeSocket(
  overrides: { state?: number; queued?: number; deflate?: boolean; writable?: boolean } = {},
) {
  const written: Buffer[] = [];
  const sent: Buffer[] = [];
  const ws = {
    _socket: {
      writable: overrides.writable ?? true,
      destroyed: false,
      write: (b: Buffer) => written.push(b),
    },
    _sender: { _state: overrides.state ?? 0, _queue: Array.from({ length: overrides.queued ?? 0 }) },
    _extensions: overrides.deflate ? { 'permessage-deflate': {} } : {},
    send: (b: Buffer) => sent.push(b),
  };
  return { ws: ws as unknown as WebSocket, written, sent };
}

/** Decodes frames with ws's own Receiver (client side: unmasked frames expected). */
function decode(bytes: Buffer): string[] {
  const messages: string[] = [];
  const { Receiver } = wsModule as unknown as {
    Receiver: new (options: {
      isServer: boolean;
    }) => NodeJS.WritableStream & {
      on(event: 'message', fn: (data: Buffer) => void): void;
    };
  };
  const receiver = new Receiver({ isServer: false });
  receiver.on('message', (data: Buffer) => messages.push(data.toString()));
  receiver.write(bytes);
  return messages;
}

describe('pre-framed text frames', () => {
  it('is available with the installed ws', () => {
    expect(preFramingAvailable).toBe(true);
  });

  it.each([10, 125, 126, 65_535, 65_536, 200_000])('frames a %i-byte payload that ws decodes', (n) => {
    const payload = Buffer.from(JSON.stringify({ data: 'x'.repeat(Math.max(0, n - 11)) }));
    expect(payload.length).toBe(Math.max(n, 11));
    const shared = sharedTextFrame(payload);
    expect(shared.frame![0]).toBe(0x81); // FIN + text
    expect(shared.frame![1]! & 0x80).toBe(0); // unmasked
    expect(decode(Buffer.concat([shared.frame!, shared.frame!]))).toEqual([
      payload.toString(),
      payload.toString(),
    ]);
  });

  it('writes the frame to the socket only when ws is idle on it, else falls back to ws.send', () => {
    const shared = sharedTextFrame(Buffer.from('{"data":[]}'));
    const idle = fakeSocket();
    expect(writeSharedFrame(idle.ws, shared)).toBe(true);
    expect(idle.written).toEqual([shared.frame]);
    expect(idle.sent).toEqual([]);
    for (const busy of [
      fakeSocket({ state: 1 }), // compressing
      fakeSocket({ queued: 1 }), // sends queued behind a compression
      fakeSocket({ deflate: true }), // permessage-deflate negotiated
      fakeSocket({ writable: false }), // socket ending
    ]) {
      expect(writeSharedFrame(busy.ws, shared)).toBe(false);
      expect(busy.written).toEqual([]);
      expect(busy.sent).toEqual([shared.payload]);
    }
  });
});
