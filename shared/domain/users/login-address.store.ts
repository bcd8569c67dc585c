/**
 * Storage of the failed sign-ins of one client address in one identity realm (keys.ts
 * `loginAddress`): a counter item that lives for one window (brute-force.ts) and then expires.
 */
import { keys } from '../../data/keys.ts';
import { getRecord, incrementCounter } from '../../data/table.ts';

/** The failed sign-ins of one realm's client addresses. */
export interface RealmLoginAddressStore {
  /** Failures counted in the address's current window (0 when none). */
  failures(address: string): Promise<number>;
  /** Count one more failure; the item expires at `windowEnd` (Unix seconds). */
  countFailure(address: string, windowEnd: number): Promise<void>;
}

export const loginAddressStore = {
  of(realm: string): RealmLoginAddressStore {
    return {
      async failures(address) {
        return Number((await getRecord(keys.loginAddress(realm, address)))?.failed ?? 0);
      },
      async countFailure(address, windowEnd) {
        await incrementCounter(keys.loginAddress(realm, address), 'login-address', 'failed', 1, windowEnd);
      },
    };
  },
};
