export const ROOT: string;
export function sourceHash(): string;
export function buildIsCurrent(): boolean;
export function writeStamp(): void;
