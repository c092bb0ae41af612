#!/usr/bin/env node
// The `toolroom` command: TypeScript sources run through tsx, so the CLI and the server share lib/.
import { register } from "tsx/esm/api";

register({ tsconfig: new URL("../tsconfig.json", import.meta.url).pathname });
const { main } = await import("./cli.ts");
await main(process.argv);
