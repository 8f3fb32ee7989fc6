import type WebSocket from 'ws';

/**
 * A refresh message shared by every socket of a subscription group: serialized once per group, handed to each
 * socket through ws's public `send`, which frames it per socket (a 2–10 byte header, one corked write).
 * Building the frame once and writing it to each socket's stream saved ≈ 1.5 µs of user CPU per socket and
 * message (docs/adr/0011-push-fan-out.md), but needed ws's private fields; that path is gone
 * (docs/adr/0021-one-request-pipeline.md).
 */
export interface SharedFrame {
  payload: Buffer;
}

export const sharedTextFrame = (payload: Buffer): SharedFrame => ({ payload });

const asText = { binary: false } as const;

/**
 * Sends a shared message to one socket (the caller has checked `readyState === OPEN`). Returns whether a
 * pre-built frame was written: never, since ws frames every message itself.
 */
export function writeSharedFrame(ws: WebSocket, shared: SharedFrame): boolean {
  ws.send(shared.payload, asText);
  return false;
}
