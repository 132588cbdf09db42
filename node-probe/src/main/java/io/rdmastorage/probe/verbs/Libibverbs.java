package io.rdmastorage.probe.verbs;

import io.rdmastorage.probe.parse.ProcLimits;
import io.rdmastorage.probe.verbs.VerbsReport.DeviceTest;
import io.rdmastorage.probe.verbs.VerbsReport.PortAttributes;
import io.rdmastorage.probe.verbs.VerbsReport.Step;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import jnr.ffi.LibraryLoader;
import jnr.ffi.LibraryOption;
import jnr.ffi.Memory;
import jnr.ffi.Pointer;
import jnr.ffi.Runtime;
import jnr.ffi.annotations.SaveError;
import jnr.ffi.byref.IntByReference;
import jnr.ffi.types.size_t;
import jnr.ffi.types.u_int8_t;

/**
 * {@link UserspaceVerbs} on the real libibverbs (rdma-core), bound with jnr-ffi. Only this class
 * touches jnr-ffi; it is loaded the first time a probe asks for user-space verbs.
 */
final class Libibverbs {

    /**
     * Debian's libibverbs1 ships only the soname, no unversioned libibverbs.so (that is in -dev),
     * so the soname is tried first; the plain name lets jnr-ffi search for any versioned file.
     */
    private static final List<String> LIBRARY_NAMES = List.of("libibverbs.so.1", "ibverbs");
    /** IBV_ACCESS_LOCAL_WRITE | REMOTE_WRITE | REMOTE_READ: what storage protocols register with. */
    private static final int ACCESS = 1 | 2 | 4;

    /**
     * {@code struct ibv_port_attr} as the exported {@code ibv_query_port@@IBVERBS_1.1} fills it.
     * Since rdma-core v17 verbs.h turns {@code ibv_query_port} into an inline wrapper that calls
     * the provider with {@code sizeof(struct ibv_port_attr)}; the exported symbol is kept for old
     * binaries and writes {@code struct _compat_ibv_port_attr} (libibverbs/verbs.c), the first
     * 48 bytes of today's struct: state @0, max_mtu @4, active_mtu @8, gid_tbl_len @12,
     * port_cap_flags @16, max_msg_sz @20, bad_pkey_cntr @24, qkey_viol_cntr @28 (enums and
     * ints, 4 bytes each), pkey_tbl_len @32, lid @34, sm_lid @36 (uint16_t), then uint8_t lmc @38,
     * max_vl_num @39, sm_sl @40, subnet_timeout @41, init_type_reply @42, active_width @43,
     * active_speed @44, phys_state @45, link_layer @46, flags @47. The buffer is larger than that
     * and zeroed, so a library that writes the newer fields (port_cap_flags2, active_speed_ex)
     * cannot overrun it.
     */
    private static final int PORT_ATTR_BUFFER = 64;
    private static final int OFFSET_STATE = 0;
    private static final int OFFSET_ACTIVE_MTU = 8;
    private static final int OFFSET_LID = 34;
    private static final int OFFSET_SM_LID = 36;
    private static final int OFFSET_PHYS_STATE = 45;
    private static final int OFFSET_LINK_LAYER = 46;

    /**
     * The libibverbs functions node-probe calls, bound by their exported names. In verbs.h
     * {@code ibv_reg_mr} is a macro choosing between the exported {@code ibv_reg_mr} (plain
     * access flags, as here) and {@code ibv_reg_mr_iova2}; both symbols are exported
     * ({@code nm -D libibverbs.so.1}). Functions that report failure through errno save it.
     */
    public interface Functions {
        @SaveError
        Pointer ibv_get_device_list(IntByReference numDevices);

        void ibv_free_device_list(Pointer list);

        String ibv_get_device_name(Pointer device);

        @SaveError
        Pointer ibv_open_device(Pointer device);

        int ibv_close_device(Pointer context);

        /** Returns 0 or an errno value itself. */
        int ibv_query_port(Pointer context, @u_int8_t byte portNum, Pointer portAttr);

        @SaveError
        Pointer ibv_alloc_pd(Pointer context);

        int ibv_dealloc_pd(Pointer pd);

        @SaveError
        Pointer ibv_reg_mr(Pointer pd, Pointer addr, @size_t long length, int access);

        int ibv_dereg_mr(Pointer mr);
    }

    /** The library, loaded once per process; a failed load is remembered too (it will not get better). */
    private static final class Loaded {
        static final Loaded INSTANCE = load();

        final Functions functions;
        final String problem;

        private Loaded(Functions functions, String problem) {
            this.functions = functions;
            this.problem = problem;
        }

        private static Loaded load() {
            List<String> problems = new ArrayList<>();
            for (String name : LIBRARY_NAMES) {
                try {
                    Functions f = LibraryLoader.create(Functions.class)
                            .option(LibraryOption.LoadNow, true)
                            .failImmediately()
                            .load(name);
                    return new Loaded(f, null);
                } catch (LinkageError | RuntimeException e) {
                    // also jffi's own native stub failing to load, e.g. no writable temp folder
                    problems.add(firstLine(e));
                }
            }
            return new Loaded(null, problems.get(0));
        }
    }

    private Libibverbs() {
    }

    static VerbsReport probe(Map<String, List<Integer>> portsByDevice) {
        Optional<ProcLimits.Limit> memlock = memlock();
        Loaded loaded = Loaded.INSTANCE;
        if (loaded.functions == null) {
            return VerbsReport.notLoaded(loaded.problem, memlock);
        }
        Functions f = loaded.functions;
        Runtime runtime = Runtime.getRuntime(f);
        IntByReference count = new IntByReference(0);
        Pointer list = f.ibv_get_device_list(count);
        if (list == null) {
            return VerbsReport.listFailed(runtime.getLastError(), memlock);
        }
        try {
            Map<String, Pointer> devices = new LinkedHashMap<>();
            for (int i = 0; i < count.intValue(); i++) {
                Pointer device = list.getPointer((long) i * runtime.addressSize());
                String name = device == null ? null : f.ibv_get_device_name(device);
                if (name != null) {
                    devices.put(name, device);
                }
            }
            List<DeviceTest> tests = new ArrayList<>();
            for (Map.Entry<String, List<Integer>> wanted : portsByDevice.entrySet()) {
                Pointer device = devices.get(wanted.getKey());
                tests.add(device == null
                        ? DeviceTest.failed(wanted.getKey(), Step.NOT_LISTED, 0, List.of())
                        : test(f, runtime, wanted.getKey(), device, wanted.getValue()));
            }
            return VerbsReport.tested(List.copyOf(devices.keySet()), tests, memlock);
        } finally {
            f.ibv_free_device_list(list);
        }
    }

    /** Open, query, allocate, register, and release it all again in reverse order. */
    private static DeviceTest test(Functions f, Runtime runtime, String name, Pointer device, List<Integer> ports) {
        Pointer context = f.ibv_open_device(device);
        if (context == null) {
            return DeviceTest.failed(name, Step.OPEN_DEVICE, runtime.getLastError(), List.of());
        }
        List<PortAttributes> attributes = new ArrayList<>();
        try {
            for (int port : ports) {
                Pointer attr = Memory.allocateDirect(runtime, PORT_ATTR_BUFFER, true);
                int rc = f.ibv_query_port(context, (byte) port, attr);
                if (rc != 0) {
                    return DeviceTest.failed(name, Step.QUERY_PORT, rc, attributes);
                }
                attributes.add(new PortAttributes(port, attr.getInt(OFFSET_STATE),
                        Byte.toUnsignedInt(attr.getByte(OFFSET_PHYS_STATE)),
                        Byte.toUnsignedInt(attr.getByte(OFFSET_LINK_LAYER)),
                        Short.toUnsignedInt(attr.getShort(OFFSET_LID)),
                        Short.toUnsignedInt(attr.getShort(OFFSET_SM_LID)),
                        attr.getInt(OFFSET_ACTIVE_MTU)));
            }
            Pointer pd = f.ibv_alloc_pd(context);
            if (pd == null) {
                return DeviceTest.failed(name, Step.ALLOC_PD, runtime.getLastError(), attributes);
            }
            try {
                Pointer region = Memory.allocateDirect(runtime, UserspaceVerbs.REGION_BYTES, true);
                Pointer mr = f.ibv_reg_mr(pd, region, UserspaceVerbs.REGION_BYTES, ACCESS);
                if (mr == null) {
                    return DeviceTest.failed(name, Step.REG_MR, runtime.getLastError(), attributes);
                }
                f.ibv_dereg_mr(mr);
                return DeviceTest.passed(name, attributes, UserspaceVerbs.REGION_BYTES);
            } finally {
                f.ibv_dealloc_pd(pd);
            }
        } finally {
            f.ibv_close_device(context);
        }
    }

    /** This process's locked-memory limit: the one ibv_reg_mr is held to. */
    private static Optional<ProcLimits.Limit> memlock() {
        try {
            return ProcLimits.parse(Files.readString(Path.of("/proc/self/limits"))).get(ProcLimits.MAX_LOCKED_MEMORY);
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
    }

    private static String firstLine(Throwable e) {
        String message = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
        int nl = message.indexOf('\n');
        return (nl >= 0 ? message.substring(0, nl) : message).strip();
    }
}
