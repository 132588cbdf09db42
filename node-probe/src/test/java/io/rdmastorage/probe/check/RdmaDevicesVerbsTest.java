package io.rdmastorage.probe.check;

import static org.assertj.core.api.Assertions.assertThat;

import io.rdmastorage.contract.Status;
import io.rdmastorage.probe.host.ExecMode;
import io.rdmastorage.probe.host.HostRoot;
import io.rdmastorage.probe.host.ToolLocator;
import io.rdmastorage.probe.host.ToolRunner;
import io.rdmastorage.probe.parse.ProcLimits;
import io.rdmastorage.contract.spec.SpecReader;
import io.rdmastorage.probe.testing.FixtureHost;
import io.rdmastorage.probe.testing.RdmaFixtures;
import io.rdmastorage.probe.verbs.Errno;
import io.rdmastorage.probe.verbs.UserspaceVerbs;
import io.rdmastorage.probe.verbs.VerbsReport.DeviceTest;
import io.rdmastorage.probe.verbs.VerbsReport.PortAttributes;
import io.rdmastorage.probe.verbs.VerbsReport.Step;
import io.rdmastorage.probe.verbs.VerbsReport;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The user-space verbs part of RdmaDevices with a fake libibverbs: the device-present outcomes
 * that the build machine (no HCA) cannot produce. The real library is exercised by
 * {@link RdmaDevicesRealVerbsTest} and the verbs package's own test.
 */
class RdmaDevicesVerbsTest {

    private static final String SPEC = "{\"rdma\":{\"devices\":[\"mlx5_0/1\",\"mlx5_1/1\"],\"userspaceVerbs\":true}}";
    private static final Optional<ProcLimits.Limit> UNLIMITED =
            Optional.of(new ProcLimits.Limit(ProcLimits.Limit.UNLIMITED, ProcLimits.Limit.UNLIMITED));
    private static final Optional<ProcLimits.Limit> DOCKER_64K = Optional.of(new ProcLimits.Limit(65536, 65536));
    private static final PortAttributes ACTIVE = new PortAttributes(1, 4, 5, 1, 0x11, 1);

    @TempDir
    Path dir;

    /** Answers with a fixed report and remembers what it was asked. */
    private static final class FakeVerbs implements UserspaceVerbs {
        final VerbsReport answer;
        final List<Map<String, List<Integer>>> calls = new ArrayList<>();

        FakeVerbs(VerbsReport answer) {
            this.answer = answer;
        }

        @Override
        public VerbsReport probe(Map<String, List<Integer>> portsByDevice) {
            calls.add(portsByDevice);
            return answer;
        }
    }

    private CheckResult run(FixtureHost fixture, String spec, UserspaceVerbs verbs) throws Exception {
        HostRoot host = new HostRoot(fixture.root());
        ToolRunner tools = new ToolRunner(host, new ToolLocator(host, Map.of()), ExecMode.DIRECT, Duration.ofSeconds(5));
        ProbeContext context = new ProbeContext(host, tools, SpecReader.read(spec), false, "gpu-01", Instant.now());
        return new RdmaDevicesCheck(verbs).run(context);
    }

    private FixtureHost healthy() {
        return RdmaFixtures.healthy(FixtureHost.at(dir.resolve("root")));
    }

    private static VerbsReport bothPass(Optional<ProcLimits.Limit> memlock) {
        return VerbsReport.tested(List.of("mlx5_0", "mlx5_1"), List.of(
                DeviceTest.passed("mlx5_0", List.of(ACTIVE), UserspaceVerbs.REGION_BYTES),
                DeviceTest.passed("mlx5_1", List.of(ACTIVE), UserspaceVerbs.REGION_BYTES)), memlock);
    }

    @Test
    void opensAndRegistersOnEveryExpectedDevice() throws Exception {
        FakeVerbs verbs = new FakeVerbs(bothPass(UNLIMITED));

        CheckResult result = run(healthy(), SPEC, verbs);

        assertThat(verbs.calls).containsExactly(Map.of("mlx5_0", List.of(1), "mlx5_1", List.of(1)));
        assertThat(result.status()).isEqualTo(Status.TRUE);
        assertThat(result.message()).endsWith("; libibverbs opened mlx5_0, mlx5_1 and registered 1Mi on each (RLIMIT_MEMLOCK unlimited)");
        assertThat(result.details()).containsEntry("memlock", "unlimited")
                .containsEntry("verbs", List.of("mlx5_0: opened, port 1 ACTIVE, registered 1Mi",
                        "mlx5_1: opened, port 1 ACTIVE, registered 1Mi"));
    }

    @Test
    void registrationBeyondTheMemlockLimit() throws Exception {
        VerbsReport report = VerbsReport.tested(List.of("mlx5_0", "mlx5_1"), List.of(
                DeviceTest.failed("mlx5_0", Step.REG_MR, Errno.ENOMEM, List.of(ACTIVE)),
                DeviceTest.failed("mlx5_1", Step.REG_MR, Errno.ENOMEM, List.of(ACTIVE))), DOCKER_64K);

        CheckResult result = run(healthy(), SPEC, new FakeVerbs(report));

        assertThat(result.status()).isEqualTo(Status.FALSE);
        assertThat(result.reason()).isEqualTo("MemlockTooLow");
        assertThat(result.message())
                .startsWith("registering 1Mi with mlx5_0 failed (ibv_reg_mr: ENOMEM) and the probe's RLIMIT_MEMLOCK is 64Ki")
                .contains("LimitMEMLOCK=infinity");
    }

    @Test
    void zeroMemlockGivesEperm() throws Exception {
        VerbsReport report = VerbsReport.tested(List.of("mlx5_0", "mlx5_1"), List.of(
                DeviceTest.failed("mlx5_0", Step.REG_MR, Errno.EPERM, List.of(ACTIVE))),
                Optional.of(new ProcLimits.Limit(0, 0)));

        CheckResult result = run(healthy(), SPEC, new FakeVerbs(report));

        assertThat(result.reason()).isEqualTo("MemlockTooLow");
        assertThat(result.message()).contains("ibv_reg_mr: EPERM").contains("RLIMIT_MEMLOCK is 0");
    }

    @Test
    void enomemWithoutALimitIsNotBlamedOnMemlock() throws Exception {
        VerbsReport report = VerbsReport.tested(List.of("mlx5_0"), List.of(
                DeviceTest.failed("mlx5_0", Step.REG_MR, Errno.ENOMEM, List.of(ACTIVE))), UNLIMITED);

        CheckResult result = run(healthy(), "{\"rdma\":{\"devices\":[\"mlx5_0/1\"],\"userspaceVerbs\":true}}",
                new FakeVerbs(report));

        assertThat(result.reason()).isEqualTo("MemoryRegistrationFailed");
        assertThat(result.message()).contains("with RLIMIT_MEMLOCK unlimited").contains("dmesg");
    }

    @Test
    void libraryMissing() throws Exception {
        CheckResult result = run(healthy(), SPEC, new FakeVerbs(VerbsReport.notLoaded(
                "libibverbs.so.1: cannot open shared object file: No such file or directory", UNLIMITED)));

        assertThat(result.status()).isEqualTo(Status.FALSE);
        assertThat(result.reason()).isEqualTo("VerbsUnavailable");
        assertThat(result.message()).contains("cannot be loaded").contains("libibverbs1").contains("No such file");
    }

    @Test
    void noUverbsInTheContainer() throws Exception {
        CheckResult result = run(healthy(), SPEC, new FakeVerbs(VerbsReport.listFailed(38, UNLIMITED)));

        assertThat(result.reason()).isEqualTo("VerbsUnavailable");
        assertThat(result.message()).contains("sees no RDMA devices (ibv_get_device_list failed: ENOSYS)")
                .contains("/dev/infiniband");
    }

    @Test
    void deviceNotVisibleToLibibverbs() throws Exception {
        VerbsReport report = VerbsReport.tested(List.of("mlx5_0"), List.of(
                DeviceTest.passed("mlx5_0", List.of(ACTIVE), UserspaceVerbs.REGION_BYTES),
                DeviceTest.failed("mlx5_1", Step.NOT_LISTED, 0, List.of())), UNLIMITED);

        CheckResult result = run(healthy(), SPEC, new FakeVerbs(report));

        assertThat(result.reason()).isEqualTo("VerbsUnavailable");
        assertThat(result.message()).startsWith("libibverbs in the probe lists mlx5_0 but not mlx5_1");
    }

    @Test
    void openRefused() throws Exception {
        VerbsReport report = VerbsReport.tested(List.of("mlx5_0", "mlx5_1"), List.of(
                DeviceTest.failed("mlx5_0", Step.OPEN_DEVICE, 13, List.of())), UNLIMITED);

        CheckResult result = run(healthy(), SPEC, new FakeVerbs(report));

        assertThat(result.reason()).isEqualTo("VerbsUnavailable");
        assertThat(result.message()).startsWith("ibv_open_device(mlx5_0) failed with EACCES");
    }

    @Test
    void verbsSeeAPortThatSysfsCallsActive() throws Exception {
        VerbsReport report = VerbsReport.tested(List.of("mlx5_0", "mlx5_1"), List.of(
                DeviceTest.passed("mlx5_0", List.of(new PortAttributes(1, 2, 5, 1, 0xffff, 0)), UserspaceVerbs.REGION_BYTES)),
                UNLIMITED);

        CheckResult result = run(healthy(), SPEC, new FakeVerbs(report));

        // not the cable (sysfs sees the link up): a person looks at what the probe's container sees
        assertThat(result.reason()).isEqualTo("VerbsPortNotActive");
        assertThat(result.message()).startsWith("libibverbs in the probe reports mlx5_0/1 INIT although the host's sysfs says ACTIVE");
    }

    @Test
    void verbsAreNotTriedWhenSysfsAlreadyFails() throws Exception {
        FakeVerbs verbs = new FakeVerbs(bothPass(UNLIMITED));

        CheckResult result = run(RdmaFixtures.portDown(FixtureHost.at(dir.resolve("down"))), SPEC, verbs);

        assertThat(result.reason()).isEqualTo("PortDown");
        assertThat(verbs.calls).isEmpty();
    }

    @Test
    void withoutDeviceListTheWorkingPortsAreTested() throws Exception {
        FakeVerbs verbs = new FakeVerbs(VerbsReport.tested(List.of("mlx5_0"), List.of(
                DeviceTest.passed("mlx5_0", List.of(ACTIVE), UserspaceVerbs.REGION_BYTES)), DOCKER_64K));

        CheckResult result = run(RdmaFixtures.portDown(FixtureHost.at(dir.resolve("down"))),
                "{\"rdma\":{\"userspaceVerbs\":true}}", verbs);

        assertThat(verbs.calls).containsExactly(Map.of("mlx5_0", List.of(1)));
        assertThat(result.status()).isEqualTo(Status.TRUE);
        assertThat(result.details()).containsEntry("memlock", "64Ki");
    }

    @Test
    void aCrashingBindingIsUnknownNotACrash() throws Exception {
        UserspaceVerbs broken = ports -> {
            throw new UnsatisfiedLinkError("jffi stub");
        };

        CheckResult result = run(healthy(), SPEC, broken);

        assertThat(result.status()).isEqualTo(Status.UNKNOWN);
        assertThat(result.reason()).isEqualTo("VerbsUnavailable");
        assertThat(result.message()).contains("UnsatisfiedLinkError: jffi stub");
    }
}
