// Why a claim whose data another Information Provider holds is released without it: the stable
// words a website reads in the claim's `data_status` (docs/integration.md, "Data held elsewhere").
export const DATA_STATUSES = {
  provider_unavailable: 'the provider could not be reached, answered an error, redirected outside its own origin, or did not answer within PROVIDER_TIMEOUT_MS',
  provider_answer_invalid: 'the provider answered something that is not the claim asked for: not JSON, too large, another identity or another claim',
  data_mismatch: "the data the provider answered does not hash to the claim's onchain data hash",
  provider_grant_missing: "the provider holds no active grant of Signet's for this claim: the owner revoked it there, or did not sign its challenge",
} as const;

export type DataStatus = keyof typeof DATA_STATUSES;

export const DATA_STATUS_NAMES = Object.keys(DATA_STATUSES) as [DataStatus, ...DataStatus[]];
