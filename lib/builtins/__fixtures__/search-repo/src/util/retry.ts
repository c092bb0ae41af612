const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Calls fn until it succeeds, waiting exponentially longer (with jitter) between attempts. */
export async function retryWithBackoff<T>(fn: () => Promise<T>, attempts = 3, baseDelayMs = 100): Promise<T> {
  let lastError: unknown;
  for (let attempt = 0; attempt < attempts; attempt++) {
    try {
      return await fn();
    } catch (err) {
      lastError = err;
      const exponential = baseDelayMs * 2 ** attempt;
      await sleep(exponential + Math.random() * baseDelayMs);
    }
  }
  throw lastError;
}
