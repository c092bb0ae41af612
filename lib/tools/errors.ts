/** Start-up failures of the registry: these stop the server, by design. */
export class RegistryError extends Error {
  override name = "RegistryError";
}

export class RegistryCollisionError extends RegistryError {
  override name = "RegistryCollisionError";
  constructor(
    readonly toolName: string,
    readonly packages: [string, string],
  ) {
    super(`tool "${toolName}" is registered by two packages: "${packages[0]}" and "${packages[1]}". Remove one, or disable it with plugins.disabled.`);
  }
}
