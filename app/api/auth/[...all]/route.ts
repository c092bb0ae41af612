import { authRoute } from "@/lib/server/auth/auth-route";
import { handle } from "@/lib/server/http/route";

// Sign-in itself cannot ask for a sign-in; better-auth checks the session where it needs one.
export const GET = handle("public", authRoute);
export const POST = handle("public", authRoute);
