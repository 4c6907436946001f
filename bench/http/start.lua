-- wrk script: keyed POST /v1/start, alternating between two projects.
-- Every request has an Idempotency-Key of its own (thread and count), so
-- each one is an intent applied, not an answer repeated. The token comes
-- from TRACKEE_TOKEN, never the command line.
local threads = 0

function setup(thread)
  threads = threads + 1
  thread:set("thread_id", threads)
end

function init(args)
  count = 0
  token = os.getenv("TRACKEE_TOKEN")
end

function request()
  count = count + 1
  local project = (count % 2 == 0) and "A" or "B"
  return wrk.format("POST", "/v1/start", {
    ["Authorization"] = "Bearer " .. token,
    ["Content-Type"] = "application/json",
    ["Idempotency-Key"] = string.format("bench-%d-%d", thread_id, count),
  }, '{"project":"' .. project .. '"}')
end

function done(summary, latency, requests)
  local e = summary.errors
  io.write(string.format(
    "RESULT requests=%d seconds=%.3f rps=%.1f p50_ms=%.3f p99_ms=%.3f max_ms=%.3f non2xx=%d socket_errors=%d\n",
    summary.requests, summary.duration / 1e6, summary.requests / (summary.duration / 1e6),
    latency:percentile(50) / 1000, latency:percentile(99) / 1000, latency.max / 1000,
    e.status, e.connect + e.read + e.write + e.timeout))
end
