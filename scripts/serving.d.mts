import type { ChildProcess } from "node:child_process";

export function servingLines(serving: { host: string; port: number; token: string | undefined }): string[];
export function stopWithServer(server: ChildProcess): void;
