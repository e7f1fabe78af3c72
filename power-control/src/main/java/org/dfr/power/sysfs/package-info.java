/**
 * File access to sysfs under a configurable root. {@link org.dfr.power.sysfs.SysfsRoot} says where the
 * tree is ({@code /} on a real machine, a temporary directory in tests), and every read and write goes
 * through the small {@link org.dfr.power.sysfs.SysfsFileSystem} interface, whose real implementation uses
 * {@code java.nio.file.Files}; tests wrap it to behave like the kernel (clamping, permission denied).
 */
package org.dfr.power.sysfs;
