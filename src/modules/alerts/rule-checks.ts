import type { Clock } from '../../shared/clock.ts';
import { isRecord } from '../../shared/bus.ts';
import { AppError, type ProblemDetail } from '../../shared/errors.ts';
import type { SupportedSymbols } from '../identifiers/index.ts';
import type { DerivativesCoverage } from './ports.ts';
import type {
  DerivativesRuleType,
  FlowCondition,
  FundingCondition,
  LiquidationsCondition,
  Normalized,
  OpenInterestCondition,
  PriceCondition,
  ProbabilityCondition,
  RuleWatch,
  VolumeCondition,
} from './rule.ts';

/** A condition with the rule type whose shape it has (the route's schema checked the shape). */
export type TypedCondition =
  | { type: 'price'; condition: PriceCondition }
  | { type: 'volume'; condition: VolumeCondition }
  | { type: 'address_flow'; condition: FlowCondition }
  | { type: 'funding'; condition: FundingCondition }
  | { type: 'open_interest'; condition: OpenInterestCondition }
  | { type: 'liquidations'; condition: LiquidationsCondition }
  | { type: 'probability'; condition: ProbabilityCondition };

/**
 * The checks of a rule's fields that its schema cannot make — the symbol and exchange against the supported
 * sets, how a condition's fields go together, an expiry in the future — each adding its problems (JSON
 * pointers into the body) and what it normalized.
 */
export function createRuleChecks(options: {
  symbols: SupportedSymbols;
  resolveExchange(input: string): string;
  clock: Clock;
  /** What the derivatives source can answer; absent: derivatives rules are refused (no source). */
  derivatives?: DerivativesCoverage;
}) {
  const { clock } = options;

  /** Symbol of a price or volume rule, strictly: a rule on an unsupported symbol must not watch another. */
  function symbol(input: string, problems: ProblemDetail[], normalized: Normalized[]): string | null {
    try {
      const s = options.symbols.normalize(input, { strict: true });
      if (s.changed) normalized.push({ field: 'symbol', requested: input, used: s.value });
      return s.value;
    } catch {
      problems.push({
        pointer: '/body/symbol',
        message: `must be one of ${options.symbols.list.join(', ')}`,
      });
      return null;
    }
  }

  /**
   * A derivatives rule on a symbol or metric its source never publishes would wait forever: refused, naming
   * the field. A covered symbol whose data is absent for now is accepted (the rule waits, never reads 0).
   */
  function derivativesCoverage(type: DerivativesRuleType, symbol: string, problems: ProblemDetail[]) {
    const gap = options.derivatives
      ? options.derivatives.gap(symbol, type)
      : { field: 'type' as const, message: 'derivatives data is not available on this server' };
    if (gap) problems.push({ pointer: `/body/${gap.field}`, message: gap.message });
  }

  /**
   * What the schema cannot check of a condition — how its fields go together, the exchange's name — and the
   * condition normalized (canonical exchange, lower-case address, upper-case asset).
   */
  function condition(
    typed: TypedCondition,
    problems: ProblemDetail[],
    normalized: Normalized[],
  ): TypedCondition {
    const at = '/body/condition';
    switch (typed.type) {
      case 'price': {
        const c = typed.condition;
        if (c.op === 'change_pct') {
          if (c.window === undefined)
            problems.push({ pointer: `${at}/window`, message: 'is required for change_pct' });
          if (c.value === 0)
            problems.push({ pointer: `${at}/value`, message: 'must not be 0 (percent; negative = a fall)' });
        } else {
          if (c.window !== undefined)
            problems.push({ pointer: `${at}/window`, message: 'is only accepted with op change_pct' });
          if (!(c.value > 0))
            problems.push({ pointer: `${at}/value`, message: 'must be a price greater than 0' });
        }
        return typed;
      }
      case 'volume':
      case 'funding':
      case 'open_interest':
      case 'liquidations':
      case 'probability':
        return typed;
      case 'address_flow':
        return { type: 'address_flow', condition: flowCondition(typed.condition, problems, normalized) };
    }
  }

  function flowCondition(c: FlowCondition, problems: ProblemDetail[], normalized: Normalized[]) {
    const at = '/body/condition';
    const out: FlowCondition = { direction: c.direction, minUsd: c.minUsd };
    if (c.exchange !== undefined && c.address !== undefined)
      problems.push({ pointer: `${at}/address`, message: 'give exchange or address, not both' });
    else if (c.exchange === undefined && c.address === undefined)
      problems.push({ pointer: `${at}/exchange`, message: 'is required when address is absent' });
    if (c.exchange !== undefined) {
      const exchange = exchangeOf(c.exchange, `${at}/exchange`, problems);
      if (exchange !== undefined) {
        out.exchange = exchange;
        if (exchange !== c.exchange)
          normalized.push({ field: 'condition.exchange', requested: c.exchange, used: exchange });
      }
    }
    if (c.address !== undefined) {
      out.address = c.address.toLowerCase();
      if (out.address !== c.address)
        normalized.push({ field: 'condition.address', requested: c.address, used: out.address });
    }
    if (c.label !== undefined) out.label = c.label;
    if (c.asset !== undefined) {
      out.asset = c.asset.trim().toUpperCase();
      if (out.asset !== c.asset)
        normalized.push({ field: 'condition.asset', requested: c.asset, used: out.asset });
    }
    if (c.window !== undefined) out.window = c.window;
    return out;
  }

  function exchangeOf(input: unknown, pointer: string, problems: ProblemDetail[]): string | undefined {
    if (typeof input !== 'string') return undefined;
    try {
      return options.resolveExchange(input);
    } catch (error) {
      const known = error instanceof AppError ? (error.extra?.known as string[] | undefined) : undefined;
      problems.push({
        pointer,
        message: known ? `must be one of ${known.join(', ')}` : 'is not a known exchange',
      });
      return undefined;
    }
  }

  function expiry(value: string | null | undefined, problems: ProblemDetail[]): number | null {
    if (value === undefined || value === null) return null;
    const ms = Date.parse(value);
    if (!Number.isFinite(ms)) {
      problems.push({ pointer: '/body/expiresAt', message: 'must be an ISO 8601 date-time' });
      return null;
    }
    if (ms <= clock.now()) problems.push({ pointer: '/body/expiresAt', message: 'must be in the future' });
    return ms;
  }

  /**
   * Problems of the fields that can be checked on their own — symbol, exchange, expiry — in a body whose
   * shape is otherwise wrong, so that one answer lists every problem. `skip`: pointers already reported.
   */
  function fieldProblems(
    body: { symbol?: unknown; condition?: unknown; expiresAt?: unknown },
    skip: ReadonlySet<string>,
  ): ProblemDetail[] {
    const problems: ProblemDetail[] = [];
    if (typeof body.symbol === 'string' && !skip.has('/body/symbol')) symbol(body.symbol, problems, []);
    const exchange = isRecord(body.condition) ? body.condition.exchange : undefined;
    if (typeof exchange === 'string' && !skip.has('/body/condition/exchange'))
      exchangeOf(exchange, '/body/condition/exchange', problems);
    if (typeof body.expiresAt === 'string' && !skip.has('/body/expiresAt')) expiry(body.expiresAt, problems);
    return problems;
  }

  return { symbol, condition, expiry, fieldProblems, derivativesCoverage };
}

/** The rule's type with its symbol and checked condition, as a rule holds them. */
export function watchOf(typed: TypedCondition, symbol: string | null): RuleWatch {
  switch (typed.type) {
    case 'price':
      return { type: 'price', symbol: symbol ?? '', condition: typed.condition };
    case 'volume':
      return { type: 'volume', symbol: symbol ?? '', condition: typed.condition };
    case 'address_flow':
      return { type: 'address_flow', symbol: null, condition: typed.condition };
    case 'funding':
      return { type: 'funding', symbol: symbol ?? '', condition: typed.condition };
    case 'open_interest':
      return { type: 'open_interest', symbol: symbol ?? '', condition: typed.condition };
    case 'liquidations':
      return { type: 'liquidations', symbol: symbol ?? '', condition: typed.condition };
    case 'probability':
      return { type: 'probability', symbol: symbol ?? '', condition: typed.condition };
  }
}
