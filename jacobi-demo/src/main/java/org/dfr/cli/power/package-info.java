/**
 * The subcommands of {@code dfr power}: {@code status} (what this machine offers for frequency control
 * and power measurement, and why not), {@code cap} and {@code restore} (cap every cpufreq policy to its
 * minimum, and undo it from the restore journal), and {@code sample} (sample power for some seconds and
 * report energy). All take {@code --sysfs-root DIR} to work on a fake tree.
 */
package org.dfr.cli.power;
