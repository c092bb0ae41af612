#!/bin/sh
echo "toolroom: the native Prisma schema engine is not used here; run 'npm run migrate -- deploy|create <name>' (wasm engine)." >&2
exit 1
