import type { ParameterChange, SupportedSymbols } from '../../../modules/identifiers/index.ts';
import { isAppError } from '../../../shared/errors.ts';
import { countInbound } from '../inbound-limit.ts';
import type { Connection, ConnectionRegistry } from './connections.ts';
import { type ControlType, type PushError, type PushErrorCode, closeCodes, limits } from './protocol.ts';
import { type Selection, normalizeSelection } from './subscription.ts';

/**
 * The control protocol: what a client may send on an open socket (subscribe, unsubscribe, ping), capped at
 * `limits.controlMessagesPerWindow` per window, each answered with an acknowledgement or an error.
 */
export function createControlHandler(
  registry: ConnectionRegistry,
  now: () => number,
  supported: SupportedSymbols,
) {
  function reply(conn: Connection, message: object) {
    if (conn.closing || conn.ws.readyState !== conn.ws.OPEN) return;
    conn.ws.send(JSON.stringify(message));
  }

  function error(conn: Connection, code: PushErrorCode, message: string, id?: string | number) {
    const body: PushError = { type: 'error', code, message };
    if (id !== undefined) body.id = id;
    reply(conn, body);
  }

  function onMessage(conn: Connection, data: Buffer, isBinary: boolean) {
    conn.alive = true;
    const verdict = countInbound(conn.inbound, now());
    if (verdict === 'close') {
      registry.shut(conn, closeCodes.tooManyMessages, 'too many messages');
      return;
    }
    if (verdict === 'ignore') {
      error(
        conn,
        'rate_limited',
        `at most ${limits.controlMessagesPerWindow} messages per ${limits.controlWindowMs / 1000} s; this one was ignored`,
      );
      return;
    }
    if (isBinary) {
      error(conn, 'binary_not_supported', 'control messages are JSON text frames');
      return;
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(data.toString('utf8'));
    } catch {
      error(conn, 'malformed_message', 'the message is not valid JSON');
      return;
    }
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
      error(conn, 'malformed_message', 'a control message is a JSON object with a "type"');
      return;
    }
    const message = parsed as Record<string, unknown>;
    const id =
      typeof message.id === 'string' || typeof message.id === 'number'
        ? (message.id as string | number)
        : undefined;
    const type = message.type;
    if (type === 'ping') {
      reply(conn, id === undefined ? { type: 'pong' } : { type: 'pong', id });
      return;
    }
    if (type !== 'subscribe' && type !== 'unsubscribe') {
      error(
        conn,
        'unknown_message_type',
        `unknown message type ${JSON.stringify(type ?? null)}; expected subscribe, unsubscribe or ping`,
        id,
      );
      return;
    }
    const symbols = stringList(message.symbols);
    const horizons = stringList(message.horizons);
    if (symbols === null || horizons === null) {
      error(
        conn,
        'malformed_message',
        '"symbols" and "horizons" are optional non-empty arrays of strings (omit one to mean all)',
        id,
      );
      return;
    }
    const changes: ParameterChange[] = [];
    let selection: Selection;
    try {
      selection = normalizeSelection(supported, symbols, horizons, changes, message.strict === true);
    } catch (e) {
      if (!isAppError(e)) throw e;
      const code: PushErrorCode =
        e.code === 'unsupported_symbol'
          ? 'unsupported_symbol'
          : e.errors?.some((p) => p.pointer === '/query/horizons')
            ? 'invalid_horizon'
            : 'malformed_message';
      error(conn, code, e.message, id);
      return;
    }
    const before = conn.sub.key;
    if (type === 'subscribe') conn.sub.subscribe(selection);
    else conn.sub.unsubscribe(selection);
    registry.regroup(conn, before);
    acknowledge(conn, type, id, changes);
  }

  function acknowledge(
    conn: Connection,
    type: ControlType,
    id: string | number | undefined,
    changes: ParameterChange[],
  ) {
    const ack: Record<string, unknown> = { type: type === 'subscribe' ? 'subscribed' : 'unsubscribed' };
    if (id !== undefined) ack.id = id;
    ack.subscription = conn.sub.describe();
    if (changes.length) ack.normalized = changes;
    reply(conn, ack);
  }

  return { onMessage };
}

/** `undefined` when absent; `null` when present but not a non-empty list of strings. */
function stringList(value: unknown): string[] | undefined | null {
  if (value === undefined) return undefined;
  if (!Array.isArray(value) || value.length === 0 || !value.every((v) => typeof v === 'string')) return null;
  return value as string[];
}
