import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

/** The admin account created on a first start with an empty store: the only copies of its secrets. */
export interface FirstStartCredentials {
  email: string;
  password: string;
  token: string;
}

/** Its name in the data folder (MERIDIAN_DATA_DIR). */
export const credentialsFileName = 'first-start-credentials.txt';

/** The text of the file (and of the terminal message): the secrets and how to try them. */
export function credentialsText(credentials: FirstStartCredentials, address: string | undefined): string {
  const { email, password, token } = credentials;
  return (
    'First start with an empty store: created the admin account.\n' +
    `  email:     ${email}\n  password:  ${password}\n  API token: ${token}\n` +
    // A worker serves no API: the token is for the API replicas, whose address this process cannot know.
    (address
      ? `Try:\n  curl -H "Authorization: Bearer ${token}" ${address}/api/account\n`
      : 'This worker serves no API; use the token against an API replica (--role api):\n' +
        `  curl -H "Authorization: Bearer ${token}" http://<api replica>/api/account\n`)
  );
}

/**
 * Writes the credentials to `<dataDir>/first-start-credentials.txt`, readable by the server's user only (0600,
 * in a 0700 folder), and returns its absolute path. Logs are collected and kept (containers, journald), so
 * the secrets go here and never to a log line.
 */
export function saveFirstStartCredentials(dataDir: string, text: string): string {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const path = resolve(join(dataDir, credentialsFileName));
  writeFileSync(path, text, { mode: 0o600 });
  // A file left by an earlier store keeps its own mode when overwritten: tightened here.
  chmodSync(path, 0o600);
  return path;
}
