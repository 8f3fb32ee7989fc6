/**
 * Every environment variable the service reads, in one place. Each entry parses its raw text or throws
 * a message saying what is allowed. The README's configuration table is generated from this list
 * (`npm run meridian -- config --markdown`), so it cannot drift.
 */
export interface Variable<T> {
  name: string;
  description: string;
  /** Shown in docs; `undefined` means "not set". */
  defaultText: string;
  parse(raw: string | undefined): T;
}

const fail = (name: string, raw: string, allowed: string): never => {
  throw new Error(`${name}=${JSON.stringify(raw)} is not valid: ${allowed}`);
};

export function intVar(
  name: string,
  description: string,
  fallback: number,
  bounds: { min: number; max: number },
): Variable<number> {
  return {
    name,
    description,
    defaultText: String(fallback),
    parse: (raw) => {
      if (raw === undefined || raw === '') return fallback;
      const value = Number(raw);
      if (!Number.isInteger(value) || value < bounds.min || value > bounds.max) {
        fail(name, raw, `an integer from ${bounds.min} to ${bounds.max}`);
      }
      return value;
    },
  };
}

export function stringVar(name: string, description: string, fallback: string): Variable<string> {
  return {
    name,
    description,
    defaultText: fallback,
    parse: (raw) => (raw === undefined || raw === '' ? fallback : raw),
  };
}

/** An integer that may be left unset (then `undefined`: the feature it configures is off). */
export function optionalIntVar(
  name: string,
  description: string,
  bounds: { min: number; max: number },
): Variable<number | undefined> {
  const inner = intVar(name, description, 0, bounds);
  return {
    name,
    description,
    defaultText: '(unset)',
    parse: (raw) => (raw === undefined || raw === '' ? undefined : inner.parse(raw)),
  };
}

export function optionalStringVar(name: string, description: string): Variable<string | undefined> {
  return {
    name,
    description,
    defaultText: '(unset)',
    parse: (raw) => (raw === undefined || raw === '' ? undefined : raw),
  };
}

export function enumVar<const T extends string>(
  name: string,
  description: string,
  allowed: readonly T[],
  fallback: T,
): Variable<T> {
  return {
    name,
    description,
    defaultText: fallback,
    parse: (raw) => {
      if (raw === undefined || raw === '') return fallback;
      if (!(allowed as readonly string[]).includes(raw)) fail(name, raw, `one of ${allowed.join(', ')}`);
      return raw as T;
    },
  };
}

export function boolVar(name: string, description: string, fallback: boolean): Variable<boolean> {
  return {
    name,
    description,
    defaultText: String(fallback),
    parse: (raw) => {
      if (raw === undefined || raw === '') return fallback;
      if (['1', 'true', 'yes', 'on'].includes(raw.toLowerCase())) return true;
      if (['0', 'false', 'no', 'off'].includes(raw.toLowerCase())) return false;
      return fail(name, raw, 'true or false');
    },
  };
}

export function urlVar(name: string, description: string, protocols: string[]): Variable<string | undefined> {
  return {
    name,
    description,
    defaultText: '(unset)',
    parse: (raw) => {
      if (raw === undefined || raw === '') return undefined;
      try {
        const url = new URL(raw);
        if (!protocols.includes(url.protocol))
          fail(name, raw, `a URL starting with ${protocols.join(' or ')}`);
      } catch {
        fail(name, raw, `a URL starting with ${protocols.join(' or ')}`);
      }
      return raw;
    },
  };
}

export function listVar(name: string, description: string, fallback: string[]): Variable<string[]> {
  return {
    name,
    description,
    defaultText: fallback.length ? fallback.join(',') : '(empty)',
    parse: (raw) =>
      raw === undefined || raw.trim() === ''
        ? fallback
        : raw
            .split(',')
            .map((s) => s.trim())
            .filter(Boolean),
  };
}

const durationUnits: Record<string, number> = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** Parses `250ms`, `5s`, `30m`, `2h`, `1d` into milliseconds; undefined when the text is not such a duration. */
function parseDelay(text: string): number | undefined {
  const match = /^(\d{1,7})\s*(ms|s|m|h|d)$/i.exec(text.trim());
  return match ? Number(match[1]) * durationUnits[match[2]!.toLowerCase()]! : undefined;
}

/** A comma-separated list of durations (`5s,1m,2h`), in milliseconds. */
export function durationListVar(name: string, description: string, fallback: string[]): Variable<number[]> {
  return {
    name,
    description,
    defaultText: fallback.join(','),
    parse: (raw) => {
      const entries = (raw === undefined || raw.trim() === '' ? fallback : raw.split(','))
        .map((s) => s.trim())
        .filter(Boolean);
      const delays = entries.map((e) => parseDelay(e));
      if (!entries.length || delays.some((d) => d === undefined))
        fail(
          name,
          raw ?? '',
          'a comma-separated list of durations such as 5s,1m,30m,2h (units ms, s, m, h, d)',
        );
      return delays as number[];
    },
  };
}
