export function withTelemetryOff<E extends Record<string, string | undefined>>(env: E): E & { NEXT_TELEMETRY_DISABLED: string };
export function buildingMessage(reason: string, first: boolean): string;
export function serverNodeFlags(version?: string): string[];
export function nextStartArgs(root: string, ...args: string[]): string[];
