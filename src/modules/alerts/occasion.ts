/** What happened, as a firing sees it: the event's key and time and what the event data says. */
export interface Occasion {
  key: string;
  at: number;
  value: number;
  /** What the event's data says about it; built only when a firing is written. */
  detail: () => Record<string, unknown>;
  flowId?: string;
}

export const round = (x: number, places: number) => Math.round(x * 10 ** places) / 10 ** places;
