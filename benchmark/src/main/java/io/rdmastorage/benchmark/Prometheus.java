package io.rdmastorage.benchmark;

/** Reads values out of a Prometheus text-format scrape. */
final class Prometheus {

    private Prometheus() {
    }

    /** The sum of every sample of {@code name} whose labels contain {@code labelFilter} ("" for all). */
    static double sum(String scrape, String name, String labelFilter) {
        double sum = 0;
        for (String line : scrape.split("\n")) {
            if (line.startsWith("#") || !line.startsWith(name)) {
                continue;
            }
            String rest = line.substring(name.length());
            if (!(rest.startsWith("{") || rest.startsWith(" "))) {
                continue;   // a longer name with the same prefix
            }
            if (!labelFilter.isEmpty() && !rest.contains(labelFilter)) {
                continue;
            }
            String[] parts = line.trim().split("\\s+");
            try {
                sum += Double.parseDouble(parts[parts.length - 1]);
            } catch (NumberFormatException e) {
                // not a sample line
            }
        }
        return sum;
    }
}
