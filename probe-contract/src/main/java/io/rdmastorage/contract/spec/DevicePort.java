package io.rdmastorage.contract.spec;

import java.util.regex.Matcher;

/** An HCA port as GPFS and our spec name it: {@code mlx5_0/1}. */
public record DevicePort(String device, int port) {

    public static DevicePort parse(String value) {
        Matcher m = Rules.DEVICE_PORT.matcher(value);
        if (!m.matches()) {
            throw new IllegalArgumentException("not a device/port: " + value);
        }
        return new DevicePort(m.group(1), Integer.parseInt(m.group(2)));
    }

    @Override
    public String toString() {
        return device + "/" + port;
    }
}
