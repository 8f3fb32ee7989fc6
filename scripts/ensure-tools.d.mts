export const ANVIL_VERSION: string;
export const anvilPackage: string;
export const anvilDir: string;
export const anvilPath: string;
export function ensureAnvil(): boolean;
