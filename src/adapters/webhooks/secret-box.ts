import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { SecretBox } from '../../modules/webhooks/index.ts';

const VERSION = 'v1';

/** The 256-bit key derived from the operator's secret (HKDF-SHA256; the secret is expected to be random). */
export function keyFromOperatorSecret(secret: string): Buffer {
  return Buffer.from(
    hkdfSync('sha256', Buffer.from(secret, 'utf8'), 'meridian', 'webhook-signing-secrets/v1', 32),
  );
}

export const KEY_FILE = 'secrets.key';

/**
 * Embedded mode without MERIDIAN_SECRETS_KEY: a random key kept in `<dataDir>/secrets.key`, created once with
 * mode 0600 (readable by the server's user only). Losing the file makes stored webhook secrets unusable
 * (rotate each webhook to recover); it is not needed, and not created, until a webhook is.
 */
export function keyFromFile(dataDir: string): Buffer {
  const path = join(dataDir, KEY_FILE);
  try {
    return decodeKeyFile(readFileSync(path, 'utf8'), path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  mkdirSync(dataDir, { recursive: true });
  const text = `${randomBytes(32).toString('base64')}\n`;
  try {
    writeFileSync(path, text, { mode: 0o600, flag: 'wx' });
    chmodSync(path, 0o600);
    return decodeKeyFile(text, path);
  } catch (error) {
    // Another process created it first: use theirs.
    if ((error as NodeJS.ErrnoException).code === 'EEXIST')
      return decodeKeyFile(readFileSync(path, 'utf8'), path);
    throw error;
  }
}

function decodeKeyFile(text: string, path: string): Buffer {
  const key = Buffer.from(text.trim(), 'base64');
  if (key.length !== 32) throw new Error(`${path} does not hold a 32-byte base64 key`);
  return key;
}

/**
 * AES-256-GCM: `v1.<iv>.<tag>.<ciphertext>` (base64url), a fresh 96-bit IV per seal, the context (endpoint id)
 * as additional authenticated data.
 */
export function aesGcmSecretBox(key: Buffer): SecretBox {
  if (key.length !== 32) throw new Error('the secret box needs a 32-byte key');
  return {
    seal(plain, context) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      cipher.setAAD(Buffer.from(context, 'utf8'));
      const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return [VERSION, iv, cipher.getAuthTag(), body]
        .map((p) => (typeof p === 'string' ? p : p.toString('base64url')))
        .join('.');
    },
    open(sealed, context) {
      const [version, iv, tag, body] = sealed.split('.');
      if (version !== VERSION || !iv || !tag || body === undefined)
        throw new Error('not a sealed secret of this version');
      const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
      decipher.setAAD(Buffer.from(context, 'utf8'));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString(
        'utf8',
      );
    },
  };
}
