package io.rdmastorage.probe.verbs;

import io.rdmastorage.probe.parse.ProcLimits;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * What user-space verbs could do in the probe's own process: load libibverbs, list devices, and,
 * per requested device, open it, query ports, allocate a protection domain and register memory.
 *
 * @param loadProblem  why libibverbs could not be loaded; empty when it was
 * @param listErrno    errno of a failed {@code ibv_get_device_list} (ENOSYS: no uverbs in this
 *                     container); empty when the list was read
 * @param visible      device names libibverbs lists
 * @param tests        one per requested device, in request order
 * @param memlock      this process's RLIMIT_MEMLOCK, when /proc/self/limits could be read
 */
public record VerbsReport(Optional<String> loadProblem, OptionalInt listErrno, List<String> visible,
                          List<DeviceTest> tests, Optional<ProcLimits.Limit> memlock) {

    public VerbsReport {
        visible = List.copyOf(visible);
        tests = List.copyOf(tests);
    }

    public static VerbsReport notLoaded(String problem, Optional<ProcLimits.Limit> memlock) {
        return new VerbsReport(Optional.of(problem), OptionalInt.empty(), List.of(), List.of(), memlock);
    }

    public static VerbsReport listFailed(int errno, Optional<ProcLimits.Limit> memlock) {
        return new VerbsReport(Optional.empty(), OptionalInt.of(errno), List.of(), List.of(), memlock);
    }

    public static VerbsReport tested(List<String> visible, List<DeviceTest> tests, Optional<ProcLimits.Limit> memlock) {
        return new VerbsReport(Optional.empty(), OptionalInt.empty(), visible, tests, memlock);
    }

    /** The steps of a device test, in the order they run. */
    public enum Step {
        /** libibverbs does not list the device at all. */
        NOT_LISTED("listed by ibv_get_device_list"),
        OPEN_DEVICE("ibv_open_device"),
        QUERY_PORT("ibv_query_port"),
        ALLOC_PD("ibv_alloc_pd"),
        REG_MR("ibv_reg_mr");

        private final String call;

        Step(String call) {
            this.call = call;
        }

        public String call() {
            return call;
        }
    }

    /** The step that failed and its errno (0 when the call gave none). */
    public record Failure(Step step, int errno) {
        public String errnoName() {
            return Errno.name(errno);
        }
    }

    /**
     * One device's test.
     *
     * @param ports           the attributes of each requested port that could be queried
     * @param registeredBytes size of the memory region registered and deregistered; 0 when it was not
     */
    public record DeviceTest(String device, Optional<Failure> failure, List<PortAttributes> ports, long registeredBytes) {
        public DeviceTest {
            ports = List.copyOf(ports);
        }

        public static DeviceTest passed(String device, List<PortAttributes> ports, long registeredBytes) {
            return new DeviceTest(device, Optional.empty(), ports, registeredBytes);
        }

        public static DeviceTest failed(String device, Step step, int errno, List<PortAttributes> ports) {
            return new DeviceTest(device, Optional.of(new Failure(step, errno)), ports, 0);
        }
    }

    /**
     * The fields of {@code struct ibv_port_attr} the check uses, with verbs.h's codes:
     * state 1 DOWN, 2 INIT, 3 ARMED, 4 ACTIVE, 5 ACTIVE_DEFER; phys_state as in sysfs (5 LinkUp);
     * link_layer 0 unspecified, 1 InfiniBand, 2 Ethernet; active_mtu as enum ibv_mtu, 1 = 256 ...
     * 5 = 4096 (0 when not reported).
     */
    public record PortAttributes(int port, int state, int physState, int linkLayer, int lid, int smLid, int activeMtu) {

        /** Without the active MTU: a library that did not report it. */
        public PortAttributes(int port, int state, int physState, int linkLayer, int lid, int smLid) {
            this(port, state, physState, linkLayer, lid, smLid, 0);
        }

        /** The active MTU in bytes (256 << (code - 1)); empty when the code is not one of ibv_mtu's. */
        public java.util.OptionalInt activeMtuBytes() {
            return activeMtu >= 1 && activeMtu <= 5 ? java.util.OptionalInt.of(256 << (activeMtu - 1)) : java.util.OptionalInt.empty();
        }

        private static final List<String> STATES = List.of("NOP", "DOWN", "INIT", "ARMED", "ACTIVE", "ACTIVE_DEFER");

        public boolean active() {
            return state == 4 || state == 5;
        }

        public String stateName() {
            return state >= 0 && state < STATES.size() ? STATES.get(state) : "state " + state;
        }
    }
}
