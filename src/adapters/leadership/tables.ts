/** The current lease of each leader-elected job (times in ms on the database clock). */
export interface LeaderLeasesTable {
  job: string;
  term: number;
  holder: string;
  expires_at: number;
}

/** Every term ever granted: who led which job from when. */
export interface LeaderTermsTable {
  job: string;
  term: number;
  holder: string;
  started_at: number;
}

export interface LeadershipTables {
  leader_leases: LeaderLeasesTable;
  leader_terms: LeaderTermsTable;
}
