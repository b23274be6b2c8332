// The gate's Lua scripts (JobGate, job-gate.ts): each check-and-take runs in Redis as one step, so two
// workers never both take the last slot.

// KEYS: running, waiting, admitted and reserved of the org, then running and waiting of the site; ARGV: job id,
// now, lease end, org cap, site cap, waiting-list TTL, reservation end.
// A job may run when, for each cap, it already holds a slot, or fewer jobs wait ahead of it than there are free
// slots: a job that just arrived does not take a slot promised to one that has been waiting. Both slots or
// neither. A job its org has room for but its site has not keeps a reserved org slot while it waits for the
// site: otherwise each of the org's waiting jobs in turn would pass the org cap and queue up at the site,
// and the site's waiting list would hold a whole burst in front of other orgs' logins.
export const ACQUIRE = `
local id, now = ARGV[1], tonumber(ARGV[2])
local function blocked(running, waiting, cap, reserved)
  redis.call("ZREMRANGEBYSCORE", running, "-inf", now)
  local held = redis.call("ZCARD", running)
  if reserved then
    redis.call("ZREMRANGEBYSCORE", reserved, "-inf", now)
    if redis.call("ZSCORE", reserved, id) then return false end
    held = held + redis.call("ZCARD", reserved)
  end
  if cap <= 0 or redis.call("ZSCORE", running, id) then return false end
  local free = cap - held
  if free <= 0 then return true end
  local ahead = redis.call("ZRANK", waiting, id) or redis.call("ZCARD", waiting)
  return ahead >= free
end
local org = blocked(KEYS[1], KEYS[2], tonumber(ARGV[4]), KEYS[4])
local site = blocked(KEYS[5], KEYS[6], tonumber(ARGV[5]), nil)
redis.call("ZREM", KEYS[3], id)
if not org and not site then
  redis.call("ZADD", KEYS[1], ARGV[3], id)
  redis.call("ZADD", KEYS[5], ARGV[3], id)
  redis.call("ZREM", KEYS[2], id)
  redis.call("ZREM", KEYS[4], id)
  redis.call("ZREM", KEYS[6], id)
  -- The org's newest job in line started: its line is empty, and the next job's place starts afresh.
  if redis.call("HGET", KEYS[7], "job") == id then redis.call("DEL", KEYS[7]) end
  return 1
end
local function park(waiting, isBlocked)
  if isBlocked then
    redis.call("ZADD", waiting, "NX", now, id)
    redis.call("PEXPIRE", waiting, ARGV[6])
  else
    redis.call("ZREM", waiting, id)
  end
end
park(KEYS[2], org)
park(KEYS[6], site)
if not org and tonumber(ARGV[4]) > 0 then
  redis.call("ZADD", KEYS[4], ARGV[7], id)
  redis.call("PEXPIRE", KEYS[4], ARGV[6])
else
  redis.call("ZREM", KEYS[4], id)
end
return 0
`;

// KEYS: org running, waiting, admitted, reserved, line; ARGV: job id, now, cap, admission end, waiting-list TTL.
// At enqueue time: a job runs now when its org has no one waiting and room for it (counting the jobs admitted
// but not yet picked by a worker); otherwise it joins the org's waiting list at once. Either way, with its place
// in its org's line: the org's jobs running or let in before it, plus one (the job's queue priority), and never
// before the org's newest job still in line (the line's record: that job and its place, cleared when it starts),
// so an org's jobs keep their order even when its earlier ones' entries lapsed or no cap counts them.
export const ADMIT = `
local id, now, cap = ARGV[1], tonumber(ARGV[2]), tonumber(ARGV[3])
local held = 0
for _, k in ipairs({KEYS[1], KEYS[3], KEYS[4]}) do
  redis.call("ZREMRANGEBYSCORE", k, "-inf", now)
  held = held + redis.call("ZCARD", k)
end
local runNow, place = 0, 0
if cap <= 0 or (redis.call("ZCARD", KEYS[2]) == 0 and held < cap) then
  redis.call("ZADD", KEYS[3], ARGV[4], id)
  redis.call("PEXPIRE", KEYS[3], ARGV[5])
  runNow, place = 1, held + 1
else
  redis.call("ZADD", KEYS[2], "NX", now, id)
  redis.call("PEXPIRE", KEYS[2], ARGV[5])
  place = held + redis.call("ZRANK", KEYS[2], id) + 1
end
place = math.max(place, tonumber(redis.call("HGET", KEYS[5], "place") or "0"))
redis.call("HSET", KEYS[5], "job", id, "place", place)
redis.call("PEXPIRE", KEYS[5], ARGV[5])
return {runNow, place}
`;

// KEYS: waiting, then the sets whose jobs take slots (running; for an org also admitted and reserved); ARGV:
// now, cap. The waiting jobs that fit in the free slots, oldest first, each with its place in line (the jobs
// that hold a slot, plus one for each before it): [id, place, id, place, …].
export const HEADS = `
local cap, now = tonumber(ARGV[2]), tonumber(ARGV[1])
local taken = 0
for i = 2, #KEYS do
  redis.call("ZREMRANGEBYSCORE", KEYS[i], "-inf", now)
  taken = taken + redis.call("ZCARD", KEYS[i])
end
local free = cap <= 0 and 100 or cap - taken
if free <= 0 then return {} end
local heads = {}
for i, id in ipairs(redis.call("ZRANGE", KEYS[1], 0, free - 1)) do
  heads[#heads + 1] = id
  heads[#heads + 1] = taken + i
end
return heads
`;
