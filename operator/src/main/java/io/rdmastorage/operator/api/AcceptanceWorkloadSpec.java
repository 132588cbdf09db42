package io.rdmastorage.operator.api;

import com.fasterxml.jackson.annotation.JsonClassDescription;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Default;
import io.fabric8.generator.annotation.Max;
import io.fabric8.generator.annotation.Min;
import io.rdmastorage.contract.spec.AcceptanceSpec;

/** How long one acceptance workload runs and at what concurrency ({@link AcceptanceSpec.Run}, whose bounds these are). */
@JsonClassDescription("How long one workload runs and at what concurrency.")
public class AcceptanceWorkloadSpec {

    @JsonPropertyDescription("Seconds fio runs this workload, per transport (default 30).")
    @Default("30")
    @Min(AcceptanceSpec.MIN_DURATION_SECONDS)
    @Max(AcceptanceSpec.MAX_DURATION_SECONDS)
    private Integer durationSeconds;

    @JsonPropertyDescription("fio jobs (numjobs); the latency workload is always 1.")
    @Min(1)
    @Max(AcceptanceSpec.MAX_JOBS)
    private Integer jobs;

    @JsonPropertyDescription("I/Os in flight per job (iodepth); the latency workload is always 1.")
    @Min(1)
    @Max(AcceptanceSpec.MAX_IODEPTH)
    private Integer iodepth;

    public Integer getDurationSeconds() {
        return durationSeconds;
    }

    public void setDurationSeconds(Integer durationSeconds) {
        this.durationSeconds = durationSeconds;
    }

    public Integer getJobs() {
        return jobs;
    }

    public void setJobs(Integer jobs) {
        this.jobs = jobs;
    }

    public Integer getIodepth() {
        return iodepth;
    }

    public void setIodepth(Integer iodepth) {
        this.iodepth = iodepth;
    }
}
