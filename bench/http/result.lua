-- wrk's summary as the one line bench/http/run.sh reads, shared by the
-- wrk scripts beside this file.
function done(summary, latency, requests)
  local e = summary.errors
  io.write(string.format(
    "RESULT requests=%d seconds=%.3f rps=%.1f p50_ms=%.3f p99_ms=%.3f max_ms=%.3f non2xx=%d socket_errors=%d\n",
    summary.requests, summary.duration / 1e6, summary.requests / (summary.duration / 1e6),
    latency:percentile(50) / 1000, latency:percentile(99) / 1000, latency.max / 1000,
    e.status, e.connect + e.read + e.write + e.timeout))
end
