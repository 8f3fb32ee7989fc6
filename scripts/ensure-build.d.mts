export function serverSourceHash(): string;
export function serverBuildIsCurrent(): boolean;
export function buildServer(options?: { quiet?: boolean }): Promise<number>;
export function ensureServerBuild(options?: { quiet?: boolean }): Promise<number>;
