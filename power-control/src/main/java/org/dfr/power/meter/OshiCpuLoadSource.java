package org.dfr.power.meter;

import oshi.SystemInfo;
import oshi.hardware.CentralProcessor;

/** CPU load from OSHI's system-wide load ticks ({@code /proc/stat} on Linux). */
public final class OshiCpuLoadSource implements CpuLoadSource {

    private final CentralProcessor processor;
    private long[] previousTicks;

    public OshiCpuLoadSource() {
        this.processor = new SystemInfo().getHardware().getProcessor();
        this.previousTicks = processor.getSystemCpuLoadTicks();
    }

    @Override
    public synchronized double loadSinceLastCall() {
        double load = processor.getSystemCpuLoadBetweenTicks(previousTicks);
        previousTicks = processor.getSystemCpuLoadTicks();
        // OSHI answers NaN or a tiny negative value when no tick elapsed
        return Double.isNaN(load) ? 0.0 : Math.max(0.0, Math.min(1.0, load));
    }
}
