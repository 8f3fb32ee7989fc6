import type { WebSocket } from 'ws';
import type { Principal } from '../../../modules/accounts/index.ts';
import { type InboundWindow, inboundWindow } from '../inbound-limit.ts';
import type { Subscription } from './subscription.ts';

/** One credential (an API token or a console session) and the sockets opened with it. */
export interface Credential {
  key: string;
  tokenId?: string;
  sessionSecret?: string;
  expiresAt: number | null;
  verifiedAt: number;
  sockets: Set<Connection>;
}

export interface Connection {
  id: string;
  ws: WebSocket;
  accountId: string;
  credential: Credential;
  sub: Subscription;
  alive: boolean;
  inbound: InboundWindow;
  closing: boolean;
}

/** The sockets sharing one subscription: they get the same frame of each refresh. */
export interface Group {
  sub: Subscription;
  sockets: Set<Connection>;
}

export interface Admission {
  principal: Principal;
  /** `token:<sha256>` (matches the revocation event's hash) or `session:<sha256>`. */
  credentialKey: string;
  sessionSecret?: string;
  subscription: Subscription;
  connectionId: string;
}

export interface RegistryDeps {
  now: () => number;
  /** Read at each close, so a change of options applies to the next one. */
  closeGraceMs: () => number;
  /** Called after a socket left: the new count, and the account and id whose slot is to be given back. */
  onForget(conn: Connection, count: number): void;
}

/**
 * The subscription registry: every open socket of the replica, grouped by subscription (for the fan-out)
 * and by credential (for expiry, re-checks and revocation).
 */
export function createConnectionRegistry(deps: RegistryDeps) {
  const connections = new Set<Connection>();
  const groups = new Map<string, Group>();
  const credentials = new Map<string, Credential>();

  const join = (conn: Connection) => {
    const key = conn.sub.key;
    let group = groups.get(key);
    if (!group) {
      group = { sub: conn.sub, sockets: new Set() };
      groups.set(key, group);
    }
    group.sockets.add(conn);
  };
  const leave = (conn: Connection, key = conn.sub.key) => {
    const group = groups.get(key);
    if (!group) return;
    group.sockets.delete(conn);
    if (!group.sockets.size) groups.delete(key);
  };

  /** Stops sending to a socket and closes it; after `closeGraceMs` without a close answer, destroys it. */
  function shut(conn: Connection, code: number, reason: string) {
    if (conn.closing) return;
    conn.closing = true;
    leave(conn);
    conn.ws.close(code, reason);
    setTimeout(() => conn.ws.terminate(), deps.closeGraceMs()).unref();
  }

  /** Removes a closed socket everywhere; a credential without sockets is dropped. */
  function forget(conn: Connection) {
    if (!connections.delete(conn)) return;
    leave(conn);
    conn.credential.sockets.delete(conn);
    if (!conn.credential.sockets.size) credentials.delete(conn.credential.key);
    deps.onForget(conn, connections.size);
  }

  /** Registers an upgraded socket under its credential (shared by every socket opened with it) and group. */
  function add(ws: WebSocket, admission: Admission): Connection {
    const { principal } = admission;
    let credential = credentials.get(admission.credentialKey);
    if (!credential) {
      credential = {
        key: admission.credentialKey,
        tokenId: principal.tokenId,
        sessionSecret: admission.sessionSecret,
        expiresAt: principal.tokenExpiresAt ?? null,
        verifiedAt: deps.now(),
        sockets: new Set(),
      };
      credentials.set(credential.key, credential);
    }
    const conn: Connection = {
      id: admission.connectionId,
      ws,
      accountId: principal.orgId,
      credential,
      sub: admission.subscription,
      alive: true,
      inbound: inboundWindow(deps.now()),
      closing: false,
    };
    credential.sockets.add(conn);
    connections.add(conn);
    join(conn);
    return conn;
  }

  /** Moves a socket whose subscription changed (its key was `before`) to its new group. */
  function regroup(conn: Connection, before: string) {
    if (conn.sub.key === before) return;
    leave(conn, before);
    join(conn);
  }

  return {
    connections: connections as ReadonlySet<Connection>,
    groups: groups as ReadonlyMap<string, Group>,
    credentials: credentials as ReadonlyMap<string, Credential>,
    add,
    regroup,
    shut,
    forget,
  };
}

export type ConnectionRegistry = ReturnType<typeof createConnectionRegistry>;
