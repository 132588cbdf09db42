-- Argo CD health of an RdmaStorageProfile (rdmastorage.io/v1alpha1), from its Ready condition.
--
--   Healthy      status.observedGeneration == metadata.generation and Ready is True
--                (every matching node passed every check of the profile, verbs latency included).
--   Progressing  no verdict for this generation yet: no status, status.observedGeneration missing
--                or behind metadata.generation (or the Ready condition's own observedGeneration
--                behind), no Ready condition; or Ready Unknown NodesUnknown where every node the
--                message names is still AwaitingProbe (queued for its first probe) or
--                AwaitingMeasurement (only its first verbs latency measurement is pending).
--   Suspended    Ready Unknown NoMatchingNodes: the nodeSelector matches no node (a pool scaled to
--                zero, nodes not joined yet). Nothing failed, but nothing is verified either; or
--                Ready Unknown NodesUnknown where the unknown nodes named are only NotReady or
--                cordoned nodes (NodeNotReady, NodeUnschedulable), which are not probed until back.
--   Degraded     Ready Unknown ReconcileFailing, whatever the generations say: the operator cannot
--                reconcile the profile (the message has the error), so it would never catch up;
--                Ready False (NodesNotReady, InvalidSpec), with the Ready message; or Ready Unknown
--                for a reason that means trouble: NodesUnknown naming any node Unknown for another
--                reason than the above (ProbeTimedOut, ProbeFailedToStart, ProbeFailed,
--                ReportMissing, ReportUnparseable, ReportOversized, ReportNodeMismatch,
--                ResultExpired, NotReported, PeerUnreachable, the probe's own ToolNotFound,
--                OutputUnparseable, HostViewMissing, SourcesDisagree, ...), NoPeer (a node with no peer to measure verbs latency
--                against: the only measurable node, or a referenceNodeSelector that matches no
--                Ready node; a set-up to fix, not a pause, so not Suspended), and NoChecksConfigured
--                (the profile verifies nothing: add a check section). Any Unknown reason this
--                script does not know is Degraded too: an unknown state is never reported as fine.
--
-- Fleet consistency: FleetConsistent False (FleetDiverges: the nodes' inventory facts differ,
-- e.g. one node on older HCA firmware) degrades the profile only when spec.fleet.required is
-- true, with the FleetConsistent message; without it the profile reports, not fences, and its
-- health follows Ready alone. While fewer than two nodes have reported (FleetTooSmall) or a node
-- has no inventory facts yet (InventoryNotReported), a node Unknown only for that is Progressing.
--
-- The message is the Ready condition's message (or FleetConsistent's, above), which names the
-- first failing nodes and why; `kubectl describe rsn <profile>.<node>` has the details.
--
-- NodesUnknown covers both nodes still waiting for their first probe or latency measurement and
-- nodes whose probe went wrong; only the message tells them apart ("2 of 40 nodes unknown: gpu-01
-- (AwaitingProbe), gpu-02 (ProbeTimedOut)"). It names at most five nodes, so nodes beyond those
-- five do not count here (their RdmaStorageNodes show their own health). Reading the message
-- needs Lua's string library, which Argo CD gives a custom health script only with
--   resource.customizations.useOpenLibs.rdmastorage.io_RdmaStorageProfile: "true"
-- in argocd-cm (examples/argocd/argocd-cm-health.yaml sets it). Without it, NodesUnknown is
-- Progressing whatever the reasons, and everything else works the same.
--
-- Written for gopher-lua (Lua 5.1), Argo CD's interpreter: base and table functions only, plus
-- string.gmatch/string.match when the string library is there.

local SEVERITY = {Suspended = 1, Progressing = 2, Degraded = 3}

-- The health an Unknown node reason (or profile reason) stands for.
local function unknownReasonHealth(reason)
  if reason == "AwaitingProbe" or reason == "AwaitingMeasurement" or reason == "FleetTooSmall"
      or reason == "InventoryNotReported" then
    return "Progressing"
  end
  if reason == "NodeNotReady" or reason == "NodeUnschedulable" or reason == "NoMatchingNodes" then
    return "Suspended"
  end
  return "Degraded"
end

-- The worst health among the reasons in the message's parentheses: "gpu-01 (AwaitingProbe)",
-- "gpu-02 (GpfsVerbs: AwaitingProbe; GdsReady: ProbeTimedOut)". nil when it cannot tell.
local function namedNodesHealth(message)
  if string == nil or message == nil then
    return nil
  end
  local worst = nil
  for group in string.gmatch(message, "%(([^()]*)%)") do
    for part in string.gmatch(group, "[^;]+") do
      local reason = string.match(part, "(%u%w*)%s*$")
      if reason ~= nil then
        local health = unknownReasonHealth(reason)
        if worst == nil or SEVERITY[health] > SEVERITY[worst] then
          worst = health
        end
      end
    end
  end
  return worst
end

local function findCondition(status, conditionType)
  if status.conditions == nil then
    return nil
  end
  for _, condition in ipairs(status.conditions) do
    if condition.type == conditionType then
      return condition
    end
  end
  return nil
end

local function readyCondition(status)
  return findCondition(status, "Ready")
end

-- FleetConsistent's message when it is False and spec.fleet.required makes it count; else nil.
local function requiredFleetDivergence(obj)
  if obj.spec == nil or obj.spec.fleet == nil or obj.spec.fleet.required ~= true then
    return nil
  end
  local fleet = findCondition(obj.status, "FleetConsistent")
  if fleet == nil or fleet.status ~= "False" then
    return nil
  end
  if fleet.message == nil or fleet.message == "" then
    return tostring(fleet.reason)
  end
  return fleet.message
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
  if ready.status == "False" then
    return "Degraded", message
  end
  local divergence = requiredFleetDivergence(obj)
  if divergence ~= nil then
    return "Degraded", divergence
  end
  if ready.status == "True" then
    return "Healthy", message
  end
  if ready.reason == "NodesUnknown" then
    local named = namedNodesHealth(ready.message)
    if named == nil then
      return "Progressing", message
    end
    return named, message
  end
  return unknownReasonHealth(ready.reason), message
end

local hs = {}
hs.status, hs.message = health(obj)
return hs
