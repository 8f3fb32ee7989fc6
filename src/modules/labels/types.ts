/** What a private label says the address is: an exchange's wallet, a fund's, or a wallet the account watches. */
export const LABEL_KINDS = ['exchange', 'fund', 'wallet'] as const;
export type LabelKind = (typeof LABEL_KINDS)[number];

/** An account's own label for an address on a chain; no other account ever sees it. */
export interface PrivateLabel {
  id: string;
  accountId: string;
  kind: LabelKind;
  chain: string;
  /** Lower-case 0x address. */
  address: string;
  name: string;
  createdAt: number;
  updatedAt: number;
}

/** A page position: labels list newest first, by (createdAt, id). */
export interface LabelPosition {
  createdAt: number;
  id: string;
}

/** Per-account cap on private labels (`MERIDIAN_PRIVATE_LABELS_MAX`). */
export const DEFAULT_MAX_LABELS_PER_ACCOUNT = 1000;
