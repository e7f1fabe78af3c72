/**
 * Power meters and their selection. A {@link org.dfr.power.meter.PowerMeter} reports the energy used by
 * this host since it was opened; {@link org.dfr.power.meter.PowerMeterSelector} picks the best source the
 * machine has, in order: RAPL through powercap ({@link org.dfr.power.meter.RaplPowercapMeter}, Intel and
 * AMD), perf's {@code power/energy-pkg/} event ({@link org.dfr.power.meter.PerfEnergyMeter}), and, only
 * when its constants are configured, a model of CPU load ({@link org.dfr.power.meter.LoadModelPowerMeter}).
 * Without any of them the source is {@code none} and no watts are invented. Every candidate's verdict is
 * kept and logged with its reason.
 */
package org.dfr.power.meter;
