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

-- The RESULT line run.sh reads, from result.lua beside this script.
dofile((debug.getinfo(1, "S").source:match("^@(.*/)") or "./") .. "result.lua")
