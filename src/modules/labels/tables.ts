/** An account's private address labels; unique per (account, chain, address). */
export interface PrivateLabelsTable {
  id: string;
  account_id: string;
  kind: string;
  chain: string;
  address: string;
  name: string;
  created_at: number;
  updated_at: number;
}

export interface LabelsTables {
  private_labels: PrivateLabelsTable;
}
