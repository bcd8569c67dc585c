/** Offline sync's limits, apart from the services so the route table reads them without loading code. */
export const pullLimits = { defaultLimit: 500, maxLimit: 1000 } as const;
export const pushLimits = { maxMutations: 500 } as const;
