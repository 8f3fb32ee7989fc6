export function consoleSourceHash(): string;
export function consoleBuildIsCurrent(): boolean;
export function buildConsole(options?: { quiet?: boolean }): number;
