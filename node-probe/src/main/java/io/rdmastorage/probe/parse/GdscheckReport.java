package io.rdmastorage.probe.parse;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What {@code gdscheck -p} printed, in every format seen from GDS 1.0 to 1.16: the header lines
 * (GDS, nvidia_fs and libcufile versions), the DRIVER CONFIGURATION rows (one per file system or
 * driver, {@code Supported}/{@code Unsupported} before 1.16, a mode list such as {@code nvfs, compat}
 * since), the effective CUFILE CONFIGURATION, GPU INFO and PLATFORM INFO.
 *
 * <p>The tool pads names with spaces and prints a leading space that copies of its output often lose,
 * may be preceded by libcufile's own {@code warn:} lines, and may be cut short; the parser therefore
 * keys on names, not columns, and every part is optional.
 *
 * @param drivers          DRIVER CONFIGURATION rows as printed: row name → value, such as
 *                         {@code "IBM Spectrum Scale" → "dmabuf, compat"}
 * @param driverOptions    the {@code --}-prefixed rows below them ({@code "Mellanox PeerDirect" → "Enabled"})
 * @param cufileProperties CUFILE CONFIGURATION: {@code "properties.use_compat_mode" → "true"}
 * @param iommu            PLATFORM INFO's {@code IOMMU:} value, lower case ({@code disabled}, {@code enabled})
 * @param warnings         {@code warn:}/{@code error:} lines and platform verification errors, as printed
 */
public record GdscheckReport(Optional<String> gdsVersion, Optional<String> nvidiaFsVersion,
                             Optional<String> libcufileVersion, Map<String, String> drivers,
                             Map<String, String> driverOptions, Map<String, String> cufileProperties,
                             List<Gpu> gpus, Optional<String> iommu, Optional<Boolean> platformVerified,
                             List<String> warnings) {

    private static final Pattern NVIDIA_FS_VERSION = Pattern.compile("nvidia_fs version:\\s*(\\S+)");
    private static final Pattern LIBCUFILE_VERSION = Pattern.compile("libcufile version:\\s*(\\S+)");
    /** rdma_device_status: "Up: 1 Down: 0". */
    private static final Pattern DEVICE_STATUS = Pattern.compile("Up:\\s*(\\d+)\\s+Down:\\s*(\\d+)", Pattern.CASE_INSENSITIVE);
    private static final Pattern GPU_IOMMU_STATE = Pattern.compile("IOMMU State:\\s*(\\S+)", Pattern.CASE_INSENSITIVE);

    private enum Section { HEADER, DRIVERS, CUFILE, GPUS, PLATFORM, OTHER }

    public GdscheckReport {
        // in the order gdscheck printed them
        drivers = Collections.unmodifiableMap(new LinkedHashMap<>(drivers));
        driverOptions = Collections.unmodifiableMap(new LinkedHashMap<>(driverOptions));
        cufileProperties = Collections.unmodifiableMap(new LinkedHashMap<>(cufileProperties));
        gpus = List.copyOf(gpus);
        warnings = List.copyOf(warnings);
    }

    /**
     * One GPU INFO line ({@code GPU index 0 NVIDIA L4 bar:1 bar size (MiB):32768 supports GDS, IOMMU State: Disabled}).
     *
     * @param iommuState the per-GPU IOMMU state printed since GDS 1.x, lower case; absent in GDS 1.0
     */
    public record Gpu(String line, Optional<String> iommuState) {
    }

    /** One DRIVER CONFIGURATION row. */
    public record DriverSupport(String row, String value) {

        /** The modes of a GDS 1.16 mode list ({@code nvfs, compat} → nvfs, compat); empty for Supported/Unsupported. */
        public List<String> modes() {
            String v = value.strip().toLowerCase(Locale.ROOT);
            if (v.startsWith("supported") || v.startsWith("unsupported")) {
                return List.of();
            }
            return Arrays.stream(v.split(",")).map(String::strip).filter(m -> !m.isEmpty()).toList();
        }

        /**
         * Whether I/O reaches GPU memory directly: {@code Supported}, or a mode list with a mode other
         * than {@code compat} (nvfs, dmabuf, p2pdma). A row that only offers {@code compat} is the
         * silent POSIX fallback.
         */
        public boolean direct() {
            String v = value.strip().toLowerCase(Locale.ROOT);
            if (v.startsWith("unsupported")) {
                return false;
            }
            if (v.startsWith("supported")) {
                return true;
            }
            return modes().stream().anyMatch(m -> !m.equals("compat"));
        }

        @Override
        public String toString() {
            return row + ": " + value;
        }
    }

    /**
     * cuFile's own RDMA path as DRIVER CONFIGURATION shows it: the {@code Userspace RDMA} row and the
     * {@code --rdma library}, {@code --rdma devices} and {@code --rdma_device_status} rows below it.
     *
     * @param up   {@code Up: N} of rdma_device_status; down its {@code Down: M}
     */
    public record UserspaceRdma(Optional<DriverSupport> row, Optional<String> library, Optional<String> devices,
                                OptionalInt up, OptionalInt down) {

        /** Whether gdscheck printed any of these rows. */
        public boolean shown() {
            return row.isPresent() || library.isPresent() || devices.isPresent() || up.isPresent();
        }

        /** {@code --rdma devices : Configured} (cufile.json's rdma_dev_addr_list names devices); empty when not printed. */
        public Optional<Boolean> devicesConfigured() {
            return devices.map(d -> d.toLowerCase(Locale.ROOT).startsWith("configured"));
        }
    }

    /** The Userspace RDMA rows; each part empty when gdscheck did not print it. */
    public UserspaceRdma userspaceRdma() {
        Optional<String> status = option("rdma_device_status");
        Matcher m = DEVICE_STATUS.matcher(status.orElse(""));
        boolean counted = m.find();
        return new UserspaceRdma(driver(List.of("Userspace RDMA")), option("rdma library"), option("rdma devices"),
                counted ? OptionalInt.of(Integer.parseInt(m.group(1))) : OptionalInt.empty(),
                counted ? OptionalInt.of(Integer.parseInt(m.group(2))) : OptionalInt.empty());
    }

    /** A {@code --} row below DRIVER CONFIGURATION, its name compared without case or padding. */
    private Optional<String> option(String name) {
        return driverOptions.entrySet().stream().filter(e -> normalize(e.getKey()).equals(normalize(name)))
                .map(Map.Entry::getValue).findFirst();
    }

    /** The parsed report, or empty when the text is not gdscheck -p output at all. */
    public static Optional<GdscheckReport> parse(String text) {
        String gdsVersion = null;
        String nvidiaFs = null;
        String libcufile = null;
        String iommu = null;
        Boolean verified = null;
        Map<String, String> drivers = new LinkedHashMap<>();
        Map<String, String> options = new LinkedHashMap<>();
        Map<String, String> properties = new LinkedHashMap<>();
        List<Gpu> gpus = new ArrayList<>();
        List<String> warnings = new ArrayList<>();
        Section section = Section.HEADER;
        for (String raw : text.split("\r\n|\r|\n")) {
            String line = raw.strip();
            if (line.isEmpty() || line.startsWith("=")) {
                continue;   // blank lines and the ====== rulers around section names
            }
            String lower = line.toLowerCase(Locale.ROOT);
            if (isDiagnostic(lower)) {
                warnings.add(line);
                continue;
            }
            int colon = line.indexOf(':');
            if (isSectionName(line, colon)) {
                section = section(lower);
                continue;
            }
            if (lower.startsWith("gds release version")) {
                gdsVersion = afterColon(line);
                continue;
            }
            if (section == Section.HEADER) {
                nvidiaFs = firstGroup(NVIDIA_FS_VERSION, line, nvidiaFs);
                libcufile = firstGroup(LIBCUFILE_VERSION, line, libcufile);
            }
            if (section != Section.CUFILE && lower.startsWith("iommu:")) {
                iommu = afterColon(line).toLowerCase(Locale.ROOT);
                continue;
            }
            switch (section) {
                case DRIVERS -> {
                    if (colon > 0) {
                        String name = line.substring(0, colon).strip();
                        String value = line.substring(colon + 1).strip();
                        if (name.startsWith("--")) {
                            options.put(name.substring(2).strip(), value);
                        } else {
                            drivers.put(name, value);
                        }
                    }
                }
                case CUFILE -> {
                    if (colon > 0) {
                        properties.put(line.substring(0, colon).strip(), line.substring(colon + 1).strip());
                    }
                }
                case GPUS -> {
                    if (lower.startsWith("gpu index")) {
                        Matcher m = GPU_IOMMU_STATE.matcher(line);
                        gpus.add(new Gpu(line, m.find() ? Optional.of(m.group(1).toLowerCase(Locale.ROOT)) : Optional.empty()));
                    }
                }
                case PLATFORM -> {
                    if (lower.startsWith("platform verification")) {
                        verified = lower.contains("succeeded");
                        if (!verified) {
                            warnings.add(line);
                        }
                    }
                }
                default -> {
                    // HEADER (versions, handled above) and ENVIRONMENT: nothing we judge
                }
            }
        }
        if (gdsVersion == null && drivers.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(new GdscheckReport(Optional.ofNullable(gdsVersion), Optional.ofNullable(nvidiaFs),
                Optional.ofNullable(libcufile), drivers, options, properties, gpus, Optional.ofNullable(iommu),
                Optional.ofNullable(verified), warnings));
    }

    /** gdscheck prints no nvidia_fs version when the kernel module is not loaded (only libcufile's). */
    public boolean nvidiaFsLoaded() {
        return nvidiaFsVersion.isPresent();
    }

    /** The first of the given DRIVER CONFIGURATION rows that is present, names compared without case or padding. */
    public Optional<DriverSupport> driver(List<String> rowNames) {
        for (String wanted : rowNames) {
            for (Map.Entry<String, String> row : drivers.entrySet()) {
                if (normalize(row.getKey()).equals(normalize(wanted))) {
                    return Optional.of(new DriverSupport(row.getKey(), row.getValue()));
                }
            }
        }
        return Optional.empty();
    }

    /**
     * IOMMU state as gdscheck reports it: PLATFORM INFO's {@code IOMMU:} line, else the per-GPU
     * {@code IOMMU State} (enabled when any GPU says so); empty when the output has neither.
     */
    public Optional<Boolean> iommuEnabled() {
        if (iommu.isPresent()) {
            return Optional.of(!iommu.get().startsWith("disabled"));
        }
        List<String> states = gpus.stream().flatMap(g -> g.iommuState().stream()).toList();
        if (states.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(states.stream().anyMatch(s -> !s.startsWith("disabled")));
    }

    /** The effective {@code properties.<name>} boolean of CUFILE CONFIGURATION, when printed. */
    public Optional<Boolean> cufileFlag(String property) {
        String value = cufileProperties.get("properties." + property);
        if (value == null) {
            return Optional.empty();
        }
        return switch (value.toLowerCase(Locale.ROOT)) {
            case "true" -> Optional.of(true);
            case "false" -> Optional.of(false);
            default -> Optional.empty();
        };
    }

    private static boolean isDiagnostic(String lower) {
        return lower.startsWith("warn:") || lower.startsWith("warning:") || lower.startsWith("warn ")
                || lower.startsWith("err:") || lower.startsWith("error:");
    }

    /**
     * "DRIVER CONFIGURATION:" and the like: a line that is only a name and a colon, in capitals or
     * naming a configuration/info block, with no space before the colon, unlike a padded row whose
     * value is empty ("SCSI               :").
     */
    private static boolean isSectionName(String line, int colon) {
        if (colon != line.length() - 1 || colon == 0 || Character.isWhitespace(line.charAt(colon - 1))) {
            return false;
        }
        String lower = line.toLowerCase(Locale.ROOT);
        return line.equals(line.toUpperCase(Locale.ROOT)) || lower.endsWith("configuration:") || lower.endsWith("info:");
    }

    private static Section section(String lowerHeader) {
        if (lowerHeader.contains("driver")) {
            return Section.DRIVERS;
        }
        if (lowerHeader.contains("cufile")) {
            return Section.CUFILE;
        }
        if (lowerHeader.contains("gpu")) {
            return Section.GPUS;
        }
        if (lowerHeader.contains("platform")) {
            return Section.PLATFORM;
        }
        return Section.OTHER;
    }

    private static String afterColon(String line) {
        return line.substring(line.indexOf(':') + 1).strip();
    }

    private static String firstGroup(Pattern pattern, String line, String current) {
        if (current != null) {
            return current;
        }
        Matcher m = pattern.matcher(line);
        return m.find() ? m.group(1) : null;
    }

    private static String normalize(String rowName) {
        return String.join(" ", rowName.strip().toLowerCase(Locale.ROOT).split("\\s+"));
    }
}
