/** A settings problem, phrased for a person: the source, the key path and what was expected. */
export class SettingsError extends Error {
  constructor(
    readonly source: string,
    readonly keyPath: string,
    readonly problem: string,
  ) {
    super(`Invalid settings in ${source}${keyPath ? ` at "${keyPath}"` : ""}: ${problem}`);
    this.name = "SettingsError";
  }
}
