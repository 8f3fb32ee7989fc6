import type WebSocket from 'ws';
import * as wsModule from 'ws';

/**
 * Pre-framed fan-out. A server → client WebSocket frame is never masked, so the complete frame (2–10 header
 * bytes + payload) is the same for every recipient of a message: it is built once per subscription group and
 * the one Buffer is written to each socket's TCP stream — one `socket.write` per client instead of `ws.send`
 * (option object, header allocation, cork + two writes + uncork per client).
 *
 * `ws` has no public API for pre-framed data, so this relies on three internals of ws 8 (`Sender.frame`,
 * `ws._socket`, `ws._sender`, `ws._extensions`), checked at load and on every write; whenever one of them is missing or ws is
 * in the middle of something (not OPEN, a queued or compressing send, permessage-deflate negotiated, socket
 * not writable) the message goes through `ws.send` instead, which produces the same bytes on the wire.
 * Writing to the socket keeps ws's own accounting right: `ws.bufferedAmount` is the socket's
 * `writableLength` plus ws's queue, so the hub's bounded-buffer check sees these bytes too.
 */

interface SenderInternals {
  _state: number;
  _queue: unknown[];
}
interface SocketInternals {
  writable: boolean;
  destroyed: boolean;
  writableLength: number;
  write(chunk: Buffer): boolean;
}
interface WebSocketInternals {
  _socket?: SocketInternals | null;
  _sender?: SenderInternals | null;
  _extensions?: Record<string, unknown>;
}
type FrameFn = (data: Buffer, options: Record<string, unknown>) => Buffer[];

/** ws's `Sender` state when it is neither compressing nor waiting on a Blob (lib/sender.js `DEFAULT`). */
const SENDER_IDLE = 0;
const TEXT_OPCODE = 0x1;

const frameFn: FrameFn | undefined = (() => {
  // ws's ESM entry exports `Sender` by name; its CommonJS entry hangs it on the exported class.
  const module = wsModule as unknown as {
    Sender?: { frame?: unknown };
    default?: { Sender?: { frame?: unknown } };
  };
  const sender = module.Sender ?? module.default?.Sender;
  return typeof sender?.frame === 'function' ? (sender.frame as FrameFn) : undefined;
})();

/** Whether this `ws` exposes what pre-framing needs (false: every send goes through `ws.send`). */
export const preFramingAvailable = frameFn !== undefined;

/** A text message prepared once for many sockets: its payload (for `ws.send`) and its complete frame. */
export interface SharedFrame {
  payload: Buffer;
  /** Header + payload, unmasked; undefined when pre-framing is unavailable. */
  frame: Buffer | undefined;
}

export function sharedTextFrame(payload: Buffer): SharedFrame {
  if (!frameFn) return { payload, frame: undefined };
  const parts = frameFn(payload, {
    fin: true,
    opcode: TEXT_OPCODE,
    mask: false,
    readOnly: true,
    rsv1: false,
  });
  return { payload, frame: parts.length === 1 ? parts[0]! : Buffer.concat(parts) };
}

/**
 * Sends a shared frame to one socket: the pre-built frame straight onto the TCP stream when ws is idle on
 * it, else `ws.send(payload)`. Returns true when the pre-built frame was written. The caller has checked
 * `readyState === OPEN`.
 */
export function writeSharedFrame(ws: WebSocket, shared: SharedFrame): boolean {
  const frame = shared.frame;
  if (frame !== undefined) {
    const internals = ws as unknown as WebSocketInternals;
    const socket = internals._socket;
    const sender = internals._sender;
    if (
      socket &&
      internals._extensions !== undefined &&
      internals._extensions['permessage-deflate'] === undefined &&
      sender &&
      sender._state === SENDER_IDLE &&
      sender._queue.length === 0 &&
      socket.writable &&
      !socket.destroyed
    ) {
      socket.write(frame);
      return true;
    }
  }
  ws.send(shared.payload, { binary: false });
  return false;
}
