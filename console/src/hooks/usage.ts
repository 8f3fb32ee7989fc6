import { useSyncExternalStore } from 'react';
import { usage } from '../api/client.ts';

/** The account's quota as the latest API response reported it (undefined until one arrives). */
export function useUsage() {
  return useSyncExternalStore(usage.subscribe, usage.current);
}
