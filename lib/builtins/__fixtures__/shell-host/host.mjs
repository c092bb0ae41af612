// A stand-in for the server: runs one command through runShell and waits (shell.test.ts kills it with SIGKILL).
import { register } from "tsx/esm/api";

register({ tsconfig: new URL("../../../../tsconfig.json", import.meta.url).pathname });
const { runShell } = await import("../../shell.ts");
const [command, cwd] = process.argv.slice(2);
await runShell(command, cwd, 60_000);
