/** The narrow view of a datapoint the hub needs; everything else is passed through untouched. */
export interface PushDatapoint {
  symbol: string;
  horizon: string;
}
