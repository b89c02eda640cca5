--[[
  Releases, then takes, docsync's space locks of one tick in one call
  (src/queue/space-locks.ts), taking over a lock whose BullMQ job run is over.

    Input (a variable number of keys, given by the caller):
      KEYS[1..n]     locks to release, each deleted where it still holds its token
      KEYS[n+1..]    locks to take
      ARGV[1]        n, the count of releases
      ARGV[2..n+1]   the tokens of the releases
      ARGV[n+2..]    the tokens of the takes (each the holder's value, see LockRun)
      then the ttl (ms), then BullMQ's key prefix of the queues' jobs ('<prefix>:')

    Output, per key taken, in order: 1 when it was free; the previous holder's value when that value
    named a BullMQ job run whose job lock (BullMQ's '<prefix>:<queue>:<job id>:lock', a string
    holding the token of the worker running it) no longer holds the run's token, so it was taken
    over; otherwise 0 (busy). The job lock is read by a key the script builds: on a cluster, the
    prefix must carry a hash tag (as BullMQ's own keys must), as must every key of one call.
]]
local n = tonumber(ARGV[1])
local m = #KEYS - n
local ttl = ARGV[n + m + 2]
local jobPrefix = ARGV[n + m + 3]
for i = 1, n do
  if redis.call('get', KEYS[i]) == ARGV[i + 1] then redis.call('del', KEYS[i]) end
end
local answers = {}
for j = 1, m do
  local key = KEYS[n + j]
  local token = ARGV[n + j + 1]
  local answer = 0
  local holder = false
  if redis.call('set', key, token, 'NX', 'PX', ttl) then
    answer = 1
  else
    holder = redis.call('get', key)
  end
  if holder and string.sub(holder, 1, 1) == '{' then
    local ok, run = pcall(cjson.decode, holder)
    if ok and type(run) == 'table' and type(run.queue) == 'string' and type(run.job) == 'string'
      and type(run.token) == 'string'
      and redis.call('get', jobPrefix .. run.queue .. ':' .. run.job .. ':lock') ~= run.token then
      redis.call('set', key, token, 'PX', ttl)
      answer = holder
    end
  end
  answers[j] = answer
end
return answers
