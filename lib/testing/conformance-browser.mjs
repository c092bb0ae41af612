#!/usr/bin/env node
// $BROWSER for the conformance suite's auth scenarios: "opens" the authorization URL by following
// its redirects (the suite's authorization server approves at once) until the loopback callback.
const MAX_HOPS = 10;
let url = process.argv.at(-1);
for (let hop = 0; hop < MAX_HOPS && url; hop++) {
  const response = await fetch(url, { redirect: "manual" });
  const location = response.headers.get("location");
  await response.body?.cancel();
  url = location ? new URL(location, url).href : undefined;
}
