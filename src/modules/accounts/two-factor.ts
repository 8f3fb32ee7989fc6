import { randomInt } from 'node:crypto';
import { Secret, TOTP } from 'otpauth';
import type { Clock } from '../../shared/clock.ts';
import { AppError } from '../../shared/errors.ts';
import type { SecretSealer } from './ports.ts';
import type { TwoFactorRepository } from './repository.ts';
import { sha256Hex } from './token-format.ts';

export const RECOVERY_CODE_COUNT = 10;
const PERIOD_S = 30;
/** Codes of the step before and after now are accepted too (clock drift of the phone). */
const WINDOW = 1;
const recoveryAlphabet = 'abcdefghjkmnpqrstuvwxyz23456789';

/** How a code was accepted: a TOTP code of the authenticator app, or one of the recovery codes. */
export type CodeKind = 'totp' | 'recovery';

export interface TwoFactorDeps {
  repo: TwoFactorRepository;
  /** Undefined when the server has no key to seal secrets with: enrolment answers 503 naming the setting. */
  sealer: SecretSealer | undefined;
  sealerMissing?: string;
  clock: Clock;
  issuer?: string;
}

/** 16 characters from a 31-letter alphabet (≈ 79 bits), shown as four groups: `abcd-efgh-jkmn-pqrs`. */
function newRecoveryCode(): string {
  let code = '';
  for (let i = 0; i < 16; i++) code += recoveryAlphabet[randomInt(recoveryAlphabet.length)];
  return code.match(/.{4}/g)!.join('-');
}

/** Recovery codes are stored as SHA-256 of their canonical form (like API tokens: high entropy, no stretching). */
const recoveryHash = (userId: string, code: string) =>
  sha256Hex(`${userId}:${code.toLowerCase().replace(/[^a-z0-9]/g, '')}`);

const totpOf = (secret: string, label: string, issuer: string) =>
  new TOTP({
    issuer,
    label,
    secret: Secret.fromBase32(secret),
    algorithm: 'SHA1',
    digits: 6,
    period: PERIOD_S,
  });

/**
 * TOTP (RFC 6238) two-factor sign-in: enrolment (secret shown once, confirmed by a first code), recovery codes
 * (each usable once), the code check of a sign-in, and turning it off.
 */
export function createTwoFactor(deps: TwoFactorDeps) {
  const { repo, clock } = deps;
  const issuer = deps.issuer ?? 'Meridian';
  const sealer = (): SecretSealer => {
    if (deps.sealer) return deps.sealer;
    throw new AppError(
      'not_configured',
      deps.sealerMissing ?? 'two-factor secrets cannot be stored on this server',
    );
  };
  const context = (userId: string) => `totp:${userId}`;

  /** The time step a TOTP code belongs to, or undefined when it matches none in the window. */
  function stepOf(sealed: string, userId: string, code: string): number | undefined {
    if (!/^\d{6}$/.test(code)) return undefined;
    const secret = sealer().open(sealed, context(userId));
    const now = clock.now();
    const delta = totpOf(secret, '', issuer).validate({ token: code, timestamp: now, window: WINDOW });
    return delta === null ? undefined : Math.floor(now / 1000 / PERIOD_S) + delta;
  }

  async function status(userId: string) {
    const row = await repo.find(userId);
    const enabled = row?.confirmed_at != null;
    return { enabled, recoveryCodesLeft: enabled ? await repo.countUnusedRecoveryCodes(userId) : 0 };
  }

  /** Starts enrolment: a new secret, returned once (base32 and as an otpauth:// URI). */
  async function begin(userId: string, label: string): Promise<{ secret: string; uri: string }> {
    const secret = new Secret({ size: 20 }).base32;
    const stored = await repo.putPending({
      user_id: userId,
      secret_sealed: sealer().seal(secret, context(userId)),
      created_at: clock.now(),
    });
    if (!stored) throw new AppError('conflict', 'two-factor sign-in is already on; turn it off first');
    return { secret, uri: totpOf(secret, label, issuer).toString() };
  }

  /** Confirms enrolment with a first code; returns the recovery codes, shown this once. */
  async function confirm(userId: string, code: string): Promise<{ recoveryCodes: string[] }> {
    const row = await repo.find(userId);
    if (!row || row.confirmed_at !== null)
      throw new AppError('conflict', 'no two-factor enrolment is waiting for its first code');
    const step = stepOf(row.secret_sealed, userId, code.trim());
    if (step === undefined) throw new AppError('invalid_code');
    const recoveryCodes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
    const done = await repo.confirm(
      userId,
      clock.now(),
      step,
      recoveryCodes.map((c) => recoveryHash(userId, c)),
    );
    if (!done) throw new AppError('conflict', 'no two-factor enrolment is waiting for its first code');
    return { recoveryCodes };
  }

  /** Checks a code of an enrolled account: a TOTP code (once per step) or an unused recovery code (used up). */
  async function verify(userId: string, code: string): Promise<CodeKind | undefined> {
    const row = await repo.find(userId);
    if (!row || row.confirmed_at === null) return undefined;
    const given = code.trim();
    const step = stepOf(row.secret_sealed, userId, given);
    if (step !== undefined) return (await repo.advanceStep(userId, step)) ? 'totp' : undefined;
    if (given.length > 32) return undefined;
    return (await repo.useRecoveryCode(userId, recoveryHash(userId, given), clock.now()))
      ? 'recovery'
      : undefined;
  }

  /** Turns two-factor sign-in off, proven by a current code (or a recovery code). */
  async function disable(userId: string, code: string): Promise<CodeKind> {
    const kind = await verify(userId, code);
    if (!kind) throw new AppError('invalid_code');
    await repo.remove(userId);
    return kind;
  }

  return {
    status,
    begin,
    confirm,
    verify,
    disable,
    isEnrolled: async (userId: string) => (await status(userId)).enabled,
  };
}

export type TwoFactor = ReturnType<typeof createTwoFactor>;
