export default function Loading() {
  return (
    <div className="p-6" data-testid="runs-loading">
      <div className="mb-4 h-5 w-48 animate-pulse rounded bg-subtle" />
      <div className="space-y-2">
        {Array.from({ length: 6 }, (_, i) => (
          <div key={i} className="h-7 animate-pulse rounded bg-subtle" />
        ))}
      </div>
      <p className="mt-3 text-xs text-muted">Reading run artifacts…</p>
    </div>
  );
}
