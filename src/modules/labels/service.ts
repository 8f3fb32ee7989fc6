import { type Clock, systemClock } from '../../shared/clock.ts';
import { cursorProblem, encodeCursor, readCursor } from '../../shared/cursor.ts';
import { AppError, type ProblemDetail, validationError } from '../../shared/errors.ts';
import { newId } from '../../shared/ids.ts';
import { type PrivateLabelView, presentLabel } from './present.ts';
import type { LabelsRepository } from './repository.ts';
import {
  DEFAULT_MAX_LABELS_PER_ACCOUNT,
  LABEL_KINDS,
  type LabelKind,
  type LabelPosition,
  type PrivateLabel,
} from './types.ts';

export interface LabelInput {
  kind: string;
  chain: string;
  address: string;
  name: string;
}

export interface LabelsPage {
  data: PrivateLabelView[];
  /** Pass as `cursor` for the next (older) page; null on the last page. */
  nextCursor: string | null;
}

export interface LabelsService {
  /** Adds the label, or replaces the account's label for the same chain and address (`created: false`). */
  save(accountId: string, input: LabelInput): Promise<{ label: PrivateLabelView; created: boolean }>;
  list(
    accountId: string,
    query: { chain?: string; kind?: string; limit?: number; cursor?: string },
  ): Promise<LabelsPage>;
  get(accountId: string, id: string): Promise<PrivateLabel | undefined>;
  remove(accountId: string, id: string): Promise<void>;
  /** The account's labels for these parties, keyed `chain:address` (lower case). */
  forParties(
    accountId: string,
    parties: ReadonlyArray<{ chain: string; address: string }>,
  ): Promise<Map<string, PrivateLabel>>;
  readonly maxPerAccount: number;
}

export const DEFAULT_PAGE = 50;
export const MAX_PAGE = 200;
export const MAX_NAME = 80;
const CHAIN = /^[a-z0-9][a-z0-9-]{0,31}$/;
const ADDRESS = /^0x[0-9a-f]{40}$/;
// Names are shown in views and exports: no control characters.
// biome-ignore lint/suspicious/noControlCharactersInRegex: the point is to refuse them
const CONTROL = /[\u0000-\u001f\u007f]/;

export const partyKey = (chain: string, address: string) => `${chain}:${address.toLowerCase()}`;

function position(value: unknown): LabelPosition | undefined {
  if (!Array.isArray(value) || value.length !== 2) return undefined;
  const [createdAt, id] = value as unknown[];
  return Number.isSafeInteger(createdAt) && typeof id === 'string'
    ? { createdAt: createdAt as number, id }
    : undefined;
}

/** The fields of a label, checked and normalised (chain and address lower case, name trimmed). */
export function checkLabel(input: LabelInput): {
  kind: LabelKind;
  chain: string;
  address: string;
  name: string;
} {
  const problems: ProblemDetail[] = [];
  const kind = String(input.kind ?? '')
    .trim()
    .toLowerCase();
  if (!(LABEL_KINDS as readonly string[]).includes(kind))
    problems.push({ pointer: '/body/kind', message: `must be one of ${LABEL_KINDS.join(', ')}` });
  const chain = String(input.chain ?? '')
    .trim()
    .toLowerCase();
  if (!CHAIN.test(chain))
    problems.push({
      pointer: '/body/chain',
      message: 'must be a chain name such as ethereum, bsc or polygon',
    });
  const address = String(input.address ?? '')
    .trim()
    .toLowerCase();
  if (!ADDRESS.test(address))
    problems.push({ pointer: '/body/address', message: 'must be a 0x-prefixed 20-byte hex address' });
  const name = String(input.name ?? '').trim();
  if (name.length < 1 || name.length > MAX_NAME || CONTROL.test(name))
    problems.push({
      pointer: '/body/name',
      message: `must be 1 to ${MAX_NAME} characters, without control characters`,
    });
  if (problems.length) throw validationError(problems);
  return { kind: kind as LabelKind, chain, address, name };
}

export function createLabelsService(deps: {
  repo: LabelsRepository;
  clock?: Clock;
  /** Labels an account may hold (default 1000). */
  maxPerAccount?: number;
}): LabelsService {
  const { repo } = deps;
  const clock = deps.clock ?? systemClock;
  const maxPerAccount = deps.maxPerAccount ?? DEFAULT_MAX_LABELS_PER_ACCOUNT;

  return {
    maxPerAccount,
    async save(accountId, input) {
      const fields = checkLabel(input);
      const result = await repo.upsert(
        { id: newId('lbl'), accountId, ...fields, now: clock.now() },
        maxPerAccount,
      );
      if (result.kind === 'limit')
        throw new AppError(
          'label_limit_reached',
          `an account holds at most ${maxPerAccount} private labels; delete one first`,
          { extra: { limit: maxPerAccount } },
        );
      return { label: presentLabel(result.label), created: result.kind === 'created' };
    },

    async list(accountId, query) {
      const problems: ProblemDetail[] = [];
      let after: LabelPosition | undefined;
      if (query.cursor !== undefined && query.cursor !== '') {
        after = readCursor(query.cursor, position);
        if (!after) problems.push(cursorProblem);
      }
      const kind = query.kind?.trim().toLowerCase() || undefined;
      if (kind !== undefined && !(LABEL_KINDS as readonly string[]).includes(kind))
        problems.push({ pointer: '/query/kind', message: `must be one of ${LABEL_KINDS.join(', ')}` });
      if (problems.length) throw validationError(problems);
      const limit = Math.max(1, Math.min(query.limit ?? DEFAULT_PAGE, MAX_PAGE));
      const rows = await repo.list(accountId, {
        chain: query.chain?.trim().toLowerCase() || undefined,
        kind,
        limit,
        after,
      });
      const last = rows.at(-1);
      return {
        data: rows.map(presentLabel),
        nextCursor: last && rows.length === limit ? encodeCursor([last.createdAt, last.id]) : null,
      };
    },

    get: (accountId, id) => repo.get(accountId, id),

    async remove(accountId, id) {
      if (!(await repo.remove(accountId, id))) throw new AppError('not_found', `label ${id} does not exist`);
    },

    async forParties(accountId, parties) {
      const byChain = new Map<string, Set<string>>();
      for (const p of parties) {
        let set = byChain.get(p.chain);
        if (!set) {
          set = new Set();
          byChain.set(p.chain, set);
        }
        set.add(p.address.toLowerCase());
      }
      const found = new Map<string, PrivateLabel>();
      for (const [chain, addresses] of byChain) {
        for (const label of await repo.forAddresses(accountId, chain, [...addresses]))
          found.set(partyKey(label.chain, label.address), label);
      }
      return found;
    },
  };
}
