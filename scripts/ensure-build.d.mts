export function serverSourceHash(): string;
export function serverBuildIsCurrent(): boolean;
export function buildServer(options?: { quiet?: boolean }): number;
export function ensureServerBuild(options?: { quiet?: boolean }): number;
