import type { PushOptions } from '../src/push.ts';

/** A stand-in WebSocket a test drives by hand, handed to the client through `push.socketFactory`. */
export class FakeSocket {
  readyState = 0;
  sent: unknown[] = [];
  closedWith: number | undefined;
  onopen: ((event: unknown) => void) | null = null;
  onmessage: ((event: { data: unknown }) => void) | null = null;
  onclose: ((event: { code: number; reason: string }) => void) | null = null;
  onerror: ((event: unknown) => void) | null = null;
  constructor(readonly url: string) {}
  send(data: string) {
    this.sent.push(JSON.parse(data));
  }
  close(code = 1000) {
    this.closedWith = code;
    this.readyState = 3;
  }
  open() {
    this.readyState = 1;
    this.onopen?.({});
  }
  receive(message: unknown) {
    this.onmessage?.({ data: typeof message === 'string' ? message : JSON.stringify(message) });
  }
  drop(code: number, reason = '') {
    this.readyState = 3;
    this.onclose?.({ code, reason });
  }
}

/** Every socket the client opened, in order, and the factory that records them. */
export function fakeSockets() {
  const all: FakeSocket[] = [];
  const socketFactory: NonNullable<PushOptions['socketFactory']> = async (url) => {
    const socket = new FakeSocket(url);
    all.push(socket);
    return socket;
  };
  return { all, socketFactory };
}
