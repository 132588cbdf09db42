-- Argo CD health of an RdmaStorageProfile (rdmastorage.io/v1alpha1), from its Ready condition.
--
--   Healthy      status.observedGeneration == metadata.generation and Ready is True
--                (every matching node passed every check of the profile, verbs latency included).
--   Progressing  no verdict for this generation yet: no status, status.observedGeneration missing
--                or behind metadata.generation (or the Ready condition's own observedGeneration
--                behind), no Ready condition; or Ready Unknown NodesAwaiting: the unknown nodes
--                only wait for their first probe (AwaitingProbe) or verbs latency measurement
--                (AwaitingMeasurement), maybe beside NotReady or cordoned ones.
--   Suspended    Ready Unknown NoMatchingNodes: the nodeSelector matches no node (a pool scaled to
--                zero, nodes not joined yet). Nothing failed, but nothing is verified either; or
--                Ready Unknown NodesPaused: the unknown nodes are all NotReady or cordoned
--                (NodeNotReady, NodeUnschedulable), which are not probed until they are back.
--   Degraded     Ready Unknown ReconcileFailing, whatever the generations say: the operator cannot
--                reconcile the profile (the message has the error), so it would never catch up;
--                Ready False (NodesNotReady, InvalidSpec), with the Ready message; or Ready Unknown
--                for a reason that means trouble: NodesUnknown (a node is Unknown for another
--                reason than those above: ProbeTimedOut, ProbeFailedToStart, ProbeFailed,
--                ReportMissing, ReportUnparseable, ReportOversized, ReportNodeMismatch,
--                ResultExpired, NotReported, PeerUnreachable, the probe's own ToolNotFound,
--                OutputUnparseable, HostViewMissing, SourcesDisagree, ..., or NoPeer: no peer to
--                measure verbs latency against, a set-up to fix rather than a pause) and
--                NoChecksConfigured (the profile verifies nothing: add a check section). Any
--                Unknown reason this script does not know is Degraded too: an unknown state is
--                never reported as fine.
--
-- The message is always the Ready condition's message, which names the first failing nodes and
-- why; `kubectl describe rsn <profile>.<node>` has the details. The health never depends on the
-- message's wording: the operator gives each cause of unknown nodes its own reason, decided over
-- all of them (the message names at most five).
--
-- Written for gopher-lua (Lua 5.1), Argo CD's interpreter: base and table functions only, so it
-- needs no resource.customizations.useOpenLibs setting.

-- The health a Ready Unknown reason stands for.
local function unknownReasonHealth(reason)
  if reason == "NodesAwaiting" then
    return "Progressing"
  end
  if reason == "NodesPaused" or reason == "NoMatchingNodes" then
    return "Suspended"
  end
  return "Degraded"
end

local function readyCondition(status)
  if status.conditions == nil then
    return nil
  end
  for _, condition in ipairs(status.conditions) do
    if condition.type == "Ready" then
      return condition
    end
  end
  return nil
end

local function health(obj)
  local generation = obj.metadata.generation
  local status = obj.status
  if status == nil then
    return "Progressing", "Waiting for the operator's first verdict on this profile"
  end
  local ready = readyCondition(status)
  if ready ~= nil and ready.status == "Unknown" and ready.reason == "ReconcileFailing" then
    return "Degraded", tostring(ready.message)
  end
  if status.observedGeneration == nil or status.observedGeneration ~= generation then
    return "Progressing", "Waiting for the operator to observe generation " .. tostring(generation)
        .. " (status is for " .. tostring(status.observedGeneration) .. ")"
  end
  if ready == nil then
    return "Progressing", "Waiting for the Ready condition"
  end
  if ready.observedGeneration ~= nil and ready.observedGeneration ~= generation then
    return "Progressing", "Waiting for a Ready condition for generation " .. tostring(generation)
  end
  local message = ready.message
  if message == nil or message == "" then
    message = tostring(ready.reason)
  end
  if ready.status == "True" then
    return "Healthy", message
  end
  if ready.status == "False" then
    return "Degraded", message
  end
  return unknownReasonHealth(ready.reason), message
end

local hs = {}
hs.status, hs.message = health(obj)
return hs
