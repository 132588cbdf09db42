package io.rdmastorage.probe.testing;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A PCI function's 4 KiB configuration space as sysfs's {@code config} holds it, CONSTRUCTED for
 * tests: no public capture of a bridge's raw configuration space with its {@code lspci -vvv} beside it
 * was found, so the bytes are laid out from what {@code lspci -vvv} recorded of a real function (its
 * capability offsets, in order, and its ACSCap and ACSCtl lines), by the PCI Express Base
 * Specification's layout: a type 1 header whose capability list (Status bit 4, pointer at 0x34) holds
 * the PCI Express capability, and the extended capability list from 0x100 (ID in bits 15:0, version
 * 19:16, next offset 31:20), ACS's Capability register at +4 and Control register at +6.
 */
public final class PciConfigSpace {

    public static final int SIZE = 4096;
    /** ACS Capability and Control bits 0-6 (PCIe Base Spec, ACS Extended Capability), by lspci's names. */
    private static final List<String> ACS_BITS = List.of("SrcValid", "TransBlk", "ReqRedir", "CmpltRedir", "UpstreamFwd",
            "EgressCtrl", "DirectTrans");
    /** Capability IDs by the names lspci prints (PCI Code and ID Assignment Specification). */
    private static final Map<String, Integer> STANDARD = Map.of("Power Management", 0x01, "MSI:", 0x05, "Express", 0x10,
            "Subsystem", 0x0D, "HyperTransport", 0x08, "MSI-X", 0x11, "Vendor Specific Information", 0x09);
    private static final Map<String, Integer> EXTENDED = extended();
    private static final Pattern CAPABILITY = Pattern.compile("Capabilities: \\[([0-9a-f]+)(?: v(\\d+))?] (.*)");
    private static final Pattern ACS_LINE = Pattern.compile("(ACSCap|ACSCtl):\\s*(.*)");

    private final byte[] bytes = new byte[SIZE];
    private int lastStandard = -1;
    private int lastExtended = -1;

    private PciConfigSpace(int vendor, int device) {
        word(0x00, vendor);
        word(0x02, device);
        word(0x06, 0x0010);                  // Status: capabilities list
        bytes[0x0E] = 0x01;                  // header type 1: a bridge
    }

    /** A bridge with no capability yet. */
    public static PciConfigSpace bridge(int vendor, int device) {
        return new PciConfigSpace(vendor, device);
    }

    /**
     * A bridge laid out from one function's recorded {@code lspci -vvv} block: every "Capabilities:
     * [off] Name" line at its offset, in order; where the block elides the PCI Express capability (it
     * printed "[...]"), one is put at 0x40, and where it elides the first extended capability, a vendor
     * specific one is put at 0x100; the ACS capability gets the recorded ACSCap/ACSCtl bits.
     */
    public static PciConfigSpace fromLspci(String block) {
        PciConfigSpace config = bridge(0x1022, 0x1483);   // the IDs are not in the block; any answering vendor does
        Map<Integer, int[]> extended = new LinkedHashMap<>();
        boolean express = false;
        String acsCap = "";
        String acsCtl = "";
        for (String line : block.lines().map(String::strip).toList()) {
            Matcher cap = CAPABILITY.matcher(line);
            Matcher acs = ACS_LINE.matcher(line);
            if (cap.matches()) {
                int offset = Integer.parseInt(cap.group(1), 16);
                if (cap.group(2) == null) {
                    int id = STANDARD.entrySet().stream().filter(e -> cap.group(3).startsWith(e.getKey()))
                            .map(Map.Entry::getValue).findFirst().orElse(0x09);
                    express |= id == 0x10;
                    config.standard(offset, id);
                } else {
                    int id = EXTENDED.entrySet().stream().filter(e -> cap.group(3).startsWith(e.getKey()))
                            .map(Map.Entry::getValue).findFirst().orElse(0x000B);
                    extended.put(offset, new int[] {id, Integer.parseInt(cap.group(2))});
                }
            } else if (acs.matches()) {
                if (acs.group(1).equals("ACSCap")) {
                    acsCap = acs.group(2);
                } else {
                    acsCtl = acs.group(2);
                }
            }
        }
        if (!express) {
            config.standard(0x40, 0x10);
        }
        if (!extended.isEmpty() && !extended.containsKey(0x100)) {
            config.extended(0x100, 0x000B, 1);   // the list starts at 0x100: the block elided what is there
        }
        for (Map.Entry<Integer, int[]> e : extended.entrySet()) {
            config.extended(e.getKey(), e.getValue()[0], e.getValue()[1]);
            if (e.getValue()[0] == 0x000D) {
                config.acsRegisters(e.getKey(), acsCap, acsCtl);
            }
        }
        return config;
    }

    /** Appends a capability to the PCI header's list. */
    public PciConfigSpace standard(int offset, int id) {
        bytes[offset] = (byte) id;
        bytes[offset + 1] = 0;
        if (lastStandard < 0) {
            bytes[0x34] = (byte) offset;
        } else {
            bytes[lastStandard + 1] = (byte) offset;
        }
        lastStandard = offset;
        return this;
    }

    /** Appends an extended capability to the list that starts at 0x100. */
    public PciConfigSpace extended(int offset, int id, int version) {
        dword(offset, id | version << 16);
        if (lastExtended >= 0) {
            int header = dwordAt(lastExtended);
            dword(lastExtended, header & 0x000FFFFF | offset << 20);
        }
        lastExtended = offset;
        return this;
    }

    /** An ACS capability at {@code offset} (appended to the list) with lspci-worded Capability and Control bits. */
    public PciConfigSpace acs(int offset, String acsCap, String acsCtl) {
        return extended(offset, 0x000D, 1).acsRegisters(offset, acsCap, acsCtl);
    }

    private PciConfigSpace acsRegisters(int offset, String acsCap, String acsCtl) {
        word(offset + 4, flags(acsCap));
        word(offset + 6, flags(acsCtl));
        return this;
    }

    /** "SrcValid+ TransBlk- ReqRedir+ ..." as the register's bits. */
    public static int flags(String lspci) {
        int bits = 0;
        for (String flag : lspci.strip().split("\\s+")) {
            if (flag.endsWith("+")) {
                bits |= 1 << ACS_BITS.indexOf(flag.substring(0, flag.length() - 1));
            }
        }
        return bits;
    }

    public byte[] bytes() {
        return bytes.clone();
    }

    /** What a reader gets who sees only the first {@code n} bytes (64 without CAP_SYS_ADMIN). */
    public byte[] firstBytes(int n) {
        return Arrays.copyOf(bytes, n);
    }

    private void word(int at, int value) {
        bytes[at] = (byte) value;
        bytes[at + 1] = (byte) (value >> 8);
    }

    private void dword(int at, int value) {
        word(at, value & 0xFFFF);
        word(at + 2, value >>> 16);
    }

    private int dwordAt(int at) {
        return (bytes[at] & 0xFF) | (bytes[at + 1] & 0xFF) << 8 | (bytes[at + 2] & 0xFF) << 16 | (bytes[at + 3] & 0xFF) << 24;
    }

    private static Map<String, Integer> extended() {
        Map<String, Integer> m = new LinkedHashMap<>();
        m.put("Advanced Error Reporting", 0x0001);
        m.put("Vendor Specific Information", 0x000B);
        m.put("Access Control Services", 0x000D);
        m.put("Secondary PCI Express", 0x0019);
        m.put("Downstream Port Containment", 0x001D);
        m.put("L1 PM Substates", 0x001E);
        m.put("Precision Time Measurement", 0x001F);
        m.put("Data Link Feature", 0x0025);
        m.put("Physical Layer 16.0 GT/s", 0x0026);
        m.put("Lane Margining at the Receiver", 0x0027);
        return m;
    }
}
