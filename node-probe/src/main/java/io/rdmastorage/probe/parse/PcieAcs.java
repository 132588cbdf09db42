package io.rdmastorage.probe.parse;

import java.util.ArrayList;
import java.util.List;

/**
 * A PCI function's Access Control Services (ACS), read from its configuration space as sysfs gives it
 * ({@code /sys/devices/pci0000:00/.../config}). ACS is the PCI Express extended capability with ID
 * {@code 0x000D}; its Control register (16 bits at the capability + 6) says whether the port sends
 * peer-to-peer requests and completions up towards the root complex (P2P Request Redirect, P2P
 * Completion Redirect) or by its egress vector (P2P Egress Control) instead of straight to the peer:
 * with any of them on a switch port between a GPU and a NIC, GPUDirect traffic crosses the root complex.
 *
 * <p>The walk follows the PCI header's capability list to the PCI Express capability (no PCI Express
 * capability: a conventional function, which has no extended space and so no ACS), then the extended
 * capability list from offset {@code 0x100}. The kernel gives a reader without CAP_SYS_ADMIN only the
 * first 64 bytes of {@code config}, and a platform without extended configuration access only 256:
 * both are {@link Kind#UNREADABLE}, never "no ACS".
 *
 * @param kind       whether the function has ACS, has none, or its configuration space cannot tell
 * @param offset     where the ACS capability starts; 0 without one
 * @param capability the ACS Capability register (what the port can do)
 * @param control    the ACS Control register (what is on)
 * @param why        for {@link Kind#UNREADABLE}: what was missing, in words
 */
public record PcieAcs(Kind kind, int offset, int capability, int control, String why) {

    public enum Kind {
        /** The function has an ACS capability; its control bits are read. */
        ACS,
        /** No ACS capability (conventional PCI, or a PCI Express function without one): nothing redirects. */
        NONE,
        /** The configuration space read cannot tell: too short, all ones, or a broken capability list. */
        UNREADABLE
    }

    static final int ACS_EXT_CAP_ID = 0x000D;
    static final int PCI_EXPRESS_CAP_ID = 0x10;
    /** The Control register's bits 0-6 in order, named as {@code lspci -vvv} prints them on its ACSCtl line. */
    private static final List<String> FLAGS = List.of("SrcValid", "TransBlk", "ReqRedir", "CmpltRedir", "UpstreamFwd",
            "EgressCtrl", "DirectTrans");
    private static final int REQ_REDIR = 1 << 2;
    private static final int CMPLT_REDIR = 1 << 3;
    private static final int EGRESS_CTRL = 1 << 5;
    private static final int HEADER_BYTES = 64;
    private static final int EXTENDED_START = 0x100;
    private static final int EXTENDED_END = 4096;

    /** Decodes a function's configuration space as read from sysfs; never throws. */
    public static PcieAcs parse(byte[] config) {
        int length = config.length;
        if (length < HEADER_BYTES) {
            return unreadable("config holds " + length + " bytes, not the 64 of a PCI header");
        }
        if (word(config, 0) == 0xFFFF) {
            return unreadable("config reads as all ones (the function does not answer)");
        }
        boolean capabilityList = (word(config, 0x06) & 0x10) != 0;
        int pointer = capabilityList ? config[0x34] & 0xFC : 0;
        boolean express = false;
        for (int hops = 0; pointer >= HEADER_BYTES && hops < 48; hops++) {
            if (pointer + 2 > length) {
                return unreadable("config holds " + length + " bytes, the capability list goes on at 0x"
                        + Integer.toHexString(pointer) + " (a reader without CAP_SYS_ADMIN gets only the first 64)");
            }
            if ((config[pointer] & 0xFF) == PCI_EXPRESS_CAP_ID) {
                express = true;
                break;
            }
            pointer = config[pointer + 1] & 0xFC;
        }
        if (!express) {
            return new PcieAcs(Kind.NONE, 0, 0, 0, "");
        }
        if (length < EXTENDED_END) {
            return unreadable("config holds " + length + " bytes, so the PCI Express extended capabilities (from 0x100) "
                    + "cannot be read");
        }
        int offset = EXTENDED_START;
        for (int hops = 0; hops < (EXTENDED_END - EXTENDED_START) / 4; hops++) {
            if (offset + 8 > length) {
                return unreadable("the extended capability at 0x" + Integer.toHexString(offset) + " runs past the "
                        + length + " bytes of config");
            }
            long header = dword(config, offset);
            if (header == 0) {
                return new PcieAcs(Kind.NONE, 0, 0, 0, "");
            }
            if (header == 0xFFFFFFFFL) {
                return unreadable("the extended capability at 0x" + Integer.toHexString(offset) + " reads as all ones");
            }
            if ((header & 0xFFFF) == ACS_EXT_CAP_ID) {
                return new PcieAcs(Kind.ACS, offset, word(config, offset + 4), word(config, offset + 6), "");
            }
            int next = (int) (header >>> 20) & 0xFFC;
            if (next == 0) {
                return new PcieAcs(Kind.NONE, 0, 0, 0, "");
            }
            if (next < EXTENDED_START) {
                return unreadable("the extended capability list points to 0x" + Integer.toHexString(next));
            }
            offset = next;
        }
        return unreadable("the extended capability list does not end");
    }

    /** P2P Request Redirect, Completion Redirect or Egress Control on: peer traffic is sent up, not across. */
    public boolean redirects() {
        return kind == Kind.ACS && (control & (REQ_REDIR | CMPLT_REDIR | EGRESS_CTRL)) != 0;
    }

    /** The Control register as {@code lspci -vvv} prints it: "SrcValid+ TransBlk- ReqRedir+ ...". */
    public String controlFlags() {
        List<String> flags = new ArrayList<>();
        for (int bit = 0; bit < FLAGS.size(); bit++) {
            flags.add(FLAGS.get(bit) + ((control & (1 << bit)) != 0 ? "+" : "-"));
        }
        return String.join(" ", flags);
    }

    /** The redirecting bits that are on, such as "ReqRedir+ CmpltRedir+". */
    public String redirecting() {
        List<String> on = new ArrayList<>();
        for (int bit : new int[] {2, 3, 5}) {
            if ((control & (1 << bit)) != 0) {
                on.add(FLAGS.get(bit) + "+");
            }
        }
        return String.join(" ", on);
    }

    /** A function whose configuration space cannot tell, for {@code why}. */
    public static PcieAcs unreadable(String why) {
        return new PcieAcs(Kind.UNREADABLE, 0, 0, 0, why);
    }

    private static int word(byte[] b, int at) {
        return (b[at] & 0xFF) | (b[at + 1] & 0xFF) << 8;
    }

    private static long dword(byte[] b, int at) {
        return (word(b, at) | (long) word(b, at + 2) << 16) & 0xFFFFFFFFL;
    }
}
