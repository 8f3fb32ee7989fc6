/**
 * Private labels: an account's own names for addresses (an exchange's wallet, a fund's, a watched wallet),
 * shown only in that account's flows view and usable as the target of its address-flow alert rules.
 */
export { type PartyLabelView, type PrivateLabelView, presentLabel, presentPartyLabel } from './present.ts';
export { createKyselyLabelsRepository } from './repository.kysely.ts';
export { createMemoryLabelsRepository, type LabelsRepository } from './repository.ts';
export {
  checkLabel,
  createLabelsService,
  DEFAULT_PAGE,
  type LabelInput,
  type LabelsPage,
  type LabelsService,
  MAX_NAME,
  MAX_PAGE,
  partyKey,
} from './service.ts';
export type { LabelsTables } from './tables.ts';
export {
  DEFAULT_MAX_LABELS_PER_ACCOUNT,
  LABEL_KINDS,
  type LabelKind,
  type PrivateLabel,
} from './types.ts';
