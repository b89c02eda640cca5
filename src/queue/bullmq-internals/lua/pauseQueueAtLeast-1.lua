--[[
  Pauses a queue for at least a while, as BullMQ's Queue.rateLimit does, never shortening a longer
  pause (src/queue/bullmq-internals/pause-queue-at-least.ts).

    Input:
      KEYS[1] BullMQ's rate limit key of the queue ('limiter'): a string, the limiter's count of jobs
              started in its window, or what Queue.rateLimit stores for a pause; its PTTL is the wait
      ARGV[1] the pause, ms
      ARGV[2] what Queue.rateLimit stores (Number.MAX_SAFE_INTEGER), which no limiter's count reaches

    Output: the pause in force, ms. A pause that holds at least as long is kept; anything else (none,
    a shorter one, the limiter's count) is replaced.
]]
local pause = tonumber(ARGV[1])
local held = tonumber(redis.call('GET', KEYS[1]) or '0') or 0
if held >= tonumber(ARGV[2]) then
  local ttl = redis.call('PTTL', KEYS[1])
  if ttl >= pause then return ttl end
end
redis.call('SET', KEYS[1], ARGV[2], 'PX', pause)
return pause
