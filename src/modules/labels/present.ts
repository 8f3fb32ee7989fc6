import type { LabelKind, PrivateLabel } from './types.ts';

/** The public shape of a private label (`/api/labels`). */
export interface PrivateLabelView {
  id: string;
  kind: LabelKind;
  chain: string;
  address: string;
  name: string;
  createdAt: string;
  updatedAt: string;
}

/** What a flow's party shows of the caller's own label for its address. */
export interface PartyLabelView {
  id: string;
  kind: LabelKind;
  name: string;
}

export function presentLabel(label: PrivateLabel): PrivateLabelView {
  return {
    id: label.id,
    kind: label.kind,
    chain: label.chain,
    address: label.address,
    name: label.name,
    createdAt: new Date(label.createdAt).toISOString(),
    updatedAt: new Date(label.updatedAt).toISOString(),
  };
}

export function presentPartyLabel(label: PrivateLabel): PartyLabelView {
  return { id: label.id, kind: label.kind, name: label.name };
}
