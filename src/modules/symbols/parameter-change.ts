/** One request parameter the server normalized: what was asked for and what is used. */
export interface ParameterChange {
  param: string;
  requested: string | undefined;
  used: string;
}
