-- Argo CD health of an RdmaStorageAcceptance (rdmastorage.io/v1alpha1): a one-shot RDMA-against-TCP
-- comparison on one node, created by hand, like a Job.
--
--   Progressing  no status yet, or phase Pending (waiting for the node's earlier run, for a
--                cordoned or NotReady node, or for an earlier run's pod of the same name; message
--                from the Complete condition) or Running (measuring).
--   Healthy      phase Succeeded and RdmaEffective True: RDMA's small-I/O latency is at least
--                spec.minLatencyRatio times lower than TCP's and its CPU per I/O is lower; the
--                message has the numbers.
--   Suspended    phase Succeeded, a path run that names no earlier run (path.compareWith) and so
--                has nothing to compare with yet: its half of the comparison is done, the other
--                half is a second run after the file system's transport was switched.
--   Degraded     phase Succeeded with RdmaEffective False (the numbers say RDMA is not worth it
--                here) or Unknown (no comparison could be made), or phase Failed (a transport
--                was not measured, the run timed out, the pod failed, the node does not exist or
--                went away, its status was edited behind the operator's back: StatusEdited),
--                or any phase this script does not know: an unknown state is never reported as fine.
--
-- Written for gopher-lua (Lua 5.1), Argo CD's interpreter: base and table functions only, so it
-- needs no resource.customizations.useOpenLibs setting.

local function condition(status, type)
  if status.conditions == nil then
    return nil
  end
  for _, c in ipairs(status.conditions) do
    if c.type == type then
      return c
    end
  end
  return nil
end

local function messageOf(c, fallback)
  if c == nil then
    return fallback
  end
  if c.message == nil or c.message == "" then
    return tostring(c.reason)
  end
  return c.message
end

local function health(obj)
  local status = obj.status
  if status == nil or status.phase == nil then
    return "Progressing", "Waiting for the run to start"
  end
  local complete = condition(status, "Complete")
  local effective = condition(status, "RdmaEffective")
  if status.phase == "Pending" or status.phase == "Running" then
    return "Progressing", messageOf(complete, status.phase)
  end
  if status.phase == "Succeeded" then
    if effective ~= nil and effective.status == "True" then
      return "Healthy", messageOf(effective, "RDMA is effective")
    end
    local path = obj.spec ~= nil and obj.spec.path or nil
    if path ~= nil and path.compareWith == nil and effective ~= nil and effective.status == "Unknown"
        and effective.reason == "NoComparison" then
      return "Suspended", messageOf(effective, "waiting for a run to compare with")
    end
    return "Degraded", messageOf(effective, "Succeeded without an RdmaEffective condition")
  end
  if status.phase == "Failed" then
    return "Degraded", messageOf(complete, "Failed")
  end
  return "Degraded", "unknown phase " .. tostring(status.phase)
end

local hs = {}
hs.status, hs.message = health(obj)
return hs
