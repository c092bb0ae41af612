/** Start-up failures of the registry: these stop the server, by design. */
export class RegistryError extends Error {
  override name = "RegistryError";
}

export class RegistryCollisionError extends RegistryError {
  override name = "RegistryCollisionError";
  constructor(
    readonly toolName: string,
    readonly packages: [string, string],
    /** The built-in package's name: a built-in cannot be disabled, so only the plugin is offered. */
    builtinPackage?: string,
  ) {
    super(`tool "${toolName}" is registered by two packages: "${packages[0]}" and "${packages[1]}". ${collisionFix(packages, builtinPackage)}`);
  }
}

/** The exact settings line to add: `plugins.disabled` takes package names, not tool names. */
function collisionFix(packages: [string, string], builtinPackage: string | undefined): string {
  const line = (pkg: string) => `plugins: { disabled: [${JSON.stringify(pkg)}] }`;
  const plugins = packages.filter((p) => p !== builtinPackage);
  if (plugins.length === 1) return `A built-in cannot be replaced: uninstall ${plugins[0]}, or add this line to toolroom.yaml: ${line(plugins[0] ?? "")}`;
  return `Uninstall one, or disable one by its package name in toolroom.yaml: ${line(packages[1])} (or ${line(packages[0])})`;
}
