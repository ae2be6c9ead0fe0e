export const UNKNOWN_COMMIT: "unknown";
export function sourceCommit(root?: string, env?: NodeJS.ProcessEnv): string;
export function writeVersionFile(root?: string): string;
