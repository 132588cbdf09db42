package io.rdmastorage.probe.parse;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class CufileJsonTest {

    @Test
    void commentedFileAsShipped() {
        // constructed in the shape of the shipped /etc/cufile.json: // comment lines, nested sections
        String text = """
                {
                    // NOTE : applications can name another file with CUFILE_ENV_PATH_JSON
                    "logging": {
                        //"dir": "/home/<xxxx>",
                        "level": "ERROR"
                    },
                    "properties": {
                        // allow compat mode, this will enable use of cuFile posix read/writes
                        "allow_compat_mode": true,
                        "rdma_dev_addr_list": [ ]
                    }
                }
                """;

        CufileJson json = CufileJson.parse(text).orElseThrow();

        assertThat(json.allowCompatMode()).contains(true);
        assertThat(json.forceCompatMode()).isEmpty();
        assertThat(json.compatModeAllowed()).isTrue();
    }

    @Test
    void forbiddenAndForced() {
        CufileJson json = CufileJson.parse("{\"properties\":{\"allow_compat_mode\":false,\"force_compat_mode\":\"true\",},}")
                .orElseThrow();

        assertThat(json.compatModeAllowed()).isFalse();
        assertThat(json.forceCompatMode()).contains(true);
    }

    @Test
    void absentSettingMeansTheLibraryDefault() {
        CufileJson json = CufileJson.parse("{ /* block comment */ \"logging\": {\"level\": \"ERROR\"} }").orElseThrow();

        assertThat(json.allowCompatMode()).isEmpty();
        assertThat(json.compatModeAllowed()).isTrue();
    }

    @Test
    void gds10Name() {
        // GDS 1.0 named the setting use_compat_mode (gdscheck still prints it under that name)
        assertThat(CufileJson.parse("{\"properties\":{\"use_compat_mode\":false}}").orElseThrow().compatModeAllowed())
                .isFalse();
    }

    @Test
    void garbageIsNotAConfiguration() {
        assertThat(CufileJson.parse("")).isEmpty();
        assertThat(CufileJson.parse("properties.allow_compat_mode = false")).isEmpty();
        assertThat(CufileJson.parse("[1, 2]")).isEmpty();
        assertThat(CufileJson.parse("{\"properties\": ")).isEmpty();
    }
}
