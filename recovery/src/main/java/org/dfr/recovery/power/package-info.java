/** Frequency capping of idle hosts during a recovery, on top of {@code power-control}. */
package org.dfr.recovery.power;
