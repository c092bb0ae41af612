export const DEFAULT_DATABASE_URL: string;
export class DatabaseUrlError extends Error {}
export type DatabaseKind = "sqlite" | "postgresql";
export function databaseUrl(env?: NodeJS.ProcessEnv): string;
export function databaseKind(url: string): DatabaseKind;
export function maskPassword(url: string): string;
export function describePostgres(url: string): string;
