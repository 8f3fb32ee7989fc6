import { createHash } from 'node:crypto';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

/**
 * Bodies serialized ahead of time (market snapshot, predictions pages, the account) are sent many times per
 * refresh, so everything derived from their bytes — the ETag and the compressed variants — is computed once
 * per buffer and kept beside it: a refresh builds a new buffer, and the old one's entry goes with it (a
 * WeakMap keyed by the buffer). Used by `sendBytes` (reply.ts).
 */

/** Bodies below this size are sent as they are (compression would cost more than it saves). */
export const compressionThreshold = 1024;

export type BodyEncoding = 'br' | 'gzip';

interface Derived {
  etag: string;
  br?: Buffer;
  gzip?: Buffer;
}

const derived = new WeakMap<Buffer, Derived>();

function entryOf(bytes: Buffer): Derived {
  let entry = derived.get(bytes);
  if (entry === undefined) {
    entry = { etag: `"${createHash('sha256').update(bytes).digest('base64url').slice(0, 27)}"` };
    derived.set(bytes, entry);
  }
  return entry;
}

/** A strong ETag of the bytes. */
export const etagOf = (bytes: Buffer): string => entryOf(bytes).etag;

/** The bytes in the given encoding, compressed once per buffer (brotli at a quality fit for each refresh). */
export function encodedAs(bytes: Buffer, encoding: BodyEncoding): Buffer {
  const entry = entryOf(bytes);
  let encoded = entry[encoding];
  if (encoded === undefined) {
    encoded =
      encoding === 'br'
        ? brotliCompressSync(bytes, {
            params: {
              [constants.BROTLI_PARAM_QUALITY]: 5,
              [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
            },
          })
        : gzipSync(bytes, { level: 6 });
    entry[encoding] = encoded;
  }
  return encoded;
}

/**
 * The encoding to answer with for an `Accept-Encoding` value: brotli, else gzip, when the client accepts it
 * (a `q=0` refuses); `undefined` for identity. Only what this server produces is considered.
 */
export function preferredEncoding(acceptEncoding: string | undefined): BodyEncoding | undefined {
  if (!acceptEncoding) return undefined;
  let gzip = false;
  for (const part of acceptEncoding.split(',')) {
    const [name = '', ...params] = part.split(';');
    const coding = name.trim().toLowerCase();
    if (coding !== 'br' && coding !== 'gzip' && coding !== '*') continue;
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    if (q !== undefined && Number(q.slice(2)) === 0) continue;
    if (coding === 'br' || coding === '*') return 'br';
    gzip = true;
  }
  return gzip ? 'gzip' : undefined;
}

/** Whether an `If-None-Match` value matches the ETag (weak comparison, as RFC 9110 asks for GET). */
export function matchesEtag(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  if (ifNoneMatch.trim() === '*') return true;
  for (const candidate of ifNoneMatch.split(',')) {
    const tag = candidate.trim();
    if ((tag.startsWith('W/') ? tag.slice(2) : tag) === etag) return true;
  }
  return false;
}
