-- Argo CD health of an RdmaStorageNode (rdmastorage.io/v1alpha1): one node's verdict for one
-- profile, written by the operator and owned by its RdmaStorageProfile (Argo CD shows it under
-- the profile in the resource tree).
--
--   Healthy      Ready True: every check of the profile passed on this node, verbs latency
--                to its peer included.
--   Progressing  no verdict yet: no status, no Ready condition, or Ready Unknown AwaitingProbe
--                (the node is queued for its first probe, or for a check just added to the profile)
--                or AwaitingMeasurement (every other check is True and only the first verbs
--                latency measurement against a peer is pending).
--                Ready Unknown FleetTooSmall or InventoryNotReported (spec.fleet.required: the
--                node's MatchesFleet waits for a second node, or for this node's inventory facts).
--                Ready Unknown NoCounterBaseline (RdmaPortErrors' first round, or first after a
--                reboot: the next round has the previous round's counters to compare with).
--   Suspended    Ready Unknown NodeNotReady or NodeUnschedulable: the node is NotReady or cordoned,
--                so it is not probed until it is back; earlier results no longer count.
--   Degraded     Ready False (ChecksFailed), with the Ready message ("GpfsVerbs: TcpFallback;
--                NvmeofRdma: TransportTcp"); or Ready Unknown for any other reason: the probe
--                timed out, could not start, wrote no or an unusable report (ProbeTimedOut,
--                ProbeFailedToStart, ProbeFailed, ReportMissing, ReportOversized,
--                ReportUnparseable, ReportNodeMismatch), the result expired (ResultExpired, no
--                fresh result for 3 x interval), the probe could not tell (ToolNotFound,
--                OutputUnparseable, HostViewMissing: the probe cannot see the host's /sys, /proc
--                or /etc, SourcesDisagree: two of its sources contradict each other, ... or
--                ChecksUnknown when the checks disagree), the latency
--                pair could not tell (PeerUnreachable with no other peer to try), the profile
--                cannot verify latency here (NoPeer: the only measurable node, or no reference
--                node can serve; it does not end by waiting unless a node joins, so it is not
--                Suspended), or the profile verifies nothing (NoChecksConfigured). Any reason
--                this script does not know is Degraded too: an unknown state is never reported
--                as fine.
--
-- The message is always the Ready condition's message; each check condition has its own message
-- with what to run or fix (`kubectl describe rsn <profile>.<node>`).
--
-- Unlike the profile's, this status.observedGeneration is the generation of the PROFILE that was
-- probed, not of this object (whose spec never changes), so it is not compared with
-- metadata.generation; a profile edit shows as Progressing on the profile itself.
--
-- Written for gopher-lua (Lua 5.1), Argo CD's interpreter: base and table functions only, so it
-- needs no resource.customizations.useOpenLibs setting.

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
  local status = obj.status
  if status == nil then
    return "Progressing", "Waiting for the first probe of this node"
  end
  local ready = readyCondition(status)
  if ready == nil then
    return "Progressing", "Waiting for the Ready condition"
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
  if ready.reason == "AwaitingProbe" or ready.reason == "AwaitingMeasurement" or ready.reason == "FleetTooSmall"
      or ready.reason == "InventoryNotReported" or ready.reason == "NoCounterBaseline" then
    return "Progressing", message
  end
  if ready.reason == "NodeNotReady" or ready.reason == "NodeUnschedulable" then
    return "Suspended", message
  end
  return "Degraded", message
end

local hs = {}
hs.status, hs.message = health(obj)
return hs
