/**
 * Power control for idle hosts during a localised rollback: CPU frequency capping through sysfs
 * ({@link org.dfr.power.freq}), power meters ({@link org.dfr.power.meter}), and the sampler that turns
 * meter readings into energy per host and per phase ({@link org.dfr.power.energy}).
 *
 * <p>Every file access goes through a {@link org.dfr.power.sysfs.Sysfs} bound to a configurable root, so
 * tests and users can point the whole module at a fake tree. Time comes from a {@link org.dfr.power.Ticker}.
 * The module depends on no other dfr module.
 */
package org.dfr.power;
