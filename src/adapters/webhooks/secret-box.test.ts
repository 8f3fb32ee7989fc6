import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { KEY_FILE, aesGcmSecretBox, keyFromFile, keyFromOperatorSecret } from './secret-box.ts';

describe('webhook secret box (AES-256-GCM)', () => {
  const box = aesGcmSecretBox(keyFromOperatorSecret('operator-secret-0123456789abcdefghijkl'));

  it('opens what it sealed, with a fresh IV each time; the secret is not in the sealed text', () => {
    const a = box.seal('whsec_abc', 'wh_1');
    const b = box.seal('whsec_abc', 'wh_1');
    expect(a).not.toBe(b);
    expect(a).not.toContain('abc');
    expect(box.open(a, 'wh_1')).toBe('whsec_abc');
  });

  it('refuses another endpoint id, another key, and a modified ciphertext', () => {
    const sealed = box.seal('whsec_abc', 'wh_1');
    expect(() => box.open(sealed, 'wh_2')).toThrow();
    const other = aesGcmSecretBox(keyFromOperatorSecret('another-operator-secret-0123456789abcdef'));
    expect(() => other.open(sealed, 'wh_1')).toThrow();
    const parts = sealed.split('.');
    parts[3] = Buffer.from('whsec_abd').toString('base64url');
    expect(() => box.open(parts.join('.'), 'wh_1')).toThrow();
  });

  it('embedded mode: a key file created once with mode 0600, the same key on the next start', () => {
    const dir = mkdtempSync(join(tmpdir(), 'meridian-key-'));
    try {
      const first = keyFromFile(dir);
      expect(statSync(join(dir, KEY_FILE)).mode & 0o777).toBe(0o600);
      expect(keyFromFile(dir).equals(first)).toBe(true);
      expect(first).toHaveLength(32);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
