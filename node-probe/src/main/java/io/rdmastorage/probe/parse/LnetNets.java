package io.rdmastorage.probe.parse;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * {@code lnetctl net show [-v N]}: the node's LNet networks and their local NIs, each with its
 * status and, from {@code -v 3} on (Lustre 2.12 and later), its health value. When LNet is not
 * configured lnetctl prints an error document instead ({@code show: - net: errno: -100, descr:
 * "cannot get networks: Network is down"}): {@link #error()} holds its description.
 *
 * @param nets  the networks, {@code lo} included, in lnetctl's order
 * @param error lnetctl's error description when it printed one instead of the networks
 */
public record LnetNets(List<Net> nets, Optional<String> error) {

    public LnetNets {
        nets = List.copyOf(nets);
    }

    /** One network ({@code o2ib1}) and its local NIs. */
    public record Net(String type, List<Ni> nis) {
        public Net {
            nis = List.copyOf(nis);
        }
    }

    /**
     * A local NI.
     *
     * @param status     {@code up} or {@code down}
     * @param interfaces the netdevs it runs on ({@code ib0})
     * @param health     its health value (1000 = no failure); empty below {@code -v 3} or before Lustre 2.12
     */
    public record Ni(LnetNid nid, String status, List<String> interfaces, OptionalInt health) {
        public Ni {
            interfaces = List.copyOf(interfaces);
        }

        public boolean up() {
            return status.equals("up");
        }
    }

    /** The document lnetctl printed; empty when it is not a {@code net:} list or an error document. */
    public static Optional<LnetNets> parse(String text) {
        Optional<Map<String, Object>> doc = LnetctlYaml.parse(text);
        if (doc.isEmpty()) {
            return Optional.empty();
        }
        for (Map<String, Object> show : LnetctlYaml.maps(doc.get(), "show")) {
            Optional<String> descr = LnetctlYaml.map(show, "net").flatMap(n -> LnetctlYaml.text(n, "descr"));
            if (descr.isPresent()) {
                return Optional.of(new LnetNets(List.of(), descr));
            }
        }
        if (!(doc.get().get("net") instanceof List)) {
            return Optional.empty();
        }
        List<Net> nets = new ArrayList<>();
        for (Map<String, Object> net : LnetctlYaml.maps(doc.get(), "net")) {
            Optional<String> type = LnetctlYaml.text(net, "net type");
            if (type.isEmpty()) {
                return Optional.empty();
            }
            List<Ni> nis = new ArrayList<>();
            for (Map<String, Object> ni : LnetctlYaml.maps(net, "local NI(s)")) {
                Optional<LnetNid> nid = LnetctlYaml.text(ni, "nid").flatMap(LnetNid::parse);
                Optional<String> status = LnetctlYaml.text(ni, "status");
                if (nid.isEmpty() || status.isEmpty()) {
                    return Optional.empty();
                }
                List<String> interfaces = LnetctlYaml.map(ni, "interfaces").map(m -> m.values().stream()
                        .filter(String.class::isInstance).map(String.class::cast).toList()).orElse(List.of());
                nis.add(new Ni(nid.get(), status.get(), interfaces, health(ni)));
            }
            nets.add(new Net(LnetNid.parse("x@" + type.get()).map(LnetNid::network).orElse(type.get()), nis));
        }
        return Optional.of(new LnetNets(nets, Optional.empty()));
    }

    /** The {@code health value} of a NI's or peer NI's {@code health stats}. */
    static OptionalInt health(Map<String, Object> ni) {
        Optional<String> value = LnetctlYaml.map(ni, "health stats").flatMap(h -> LnetctlYaml.text(h, "health value"));
        if (value.isEmpty() || !value.get().matches("-?[0-9]{1,9}")) {
            return OptionalInt.empty();
        }
        return OptionalInt.of(Integer.parseInt(value.get()));
    }

    /** The network of that name ({@code o2ib}, {@code o2ib1}). */
    public Optional<Net> net(String type) {
        return nets.stream().filter(n -> n.type().equals(type)).findFirst();
    }

    /** The network names, {@code lo} left out. */
    public List<String> names() {
        return nets.stream().map(Net::type).filter(t -> !t.equals("lo")).toList();
    }
}
