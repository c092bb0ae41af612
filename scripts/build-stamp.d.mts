export interface SourceFingerprint {
  commit: string | null;
  fingerprint: string;
}
export function sourceFingerprint(root: string): SourceFingerprint;
export function staleReason(root: string, distDir: string): string | null;
export function writeStamp(root: string, distDir: string, fingerprint?: SourceFingerprint): void;
export function servedFrom(root: string, distDir: string): string;
