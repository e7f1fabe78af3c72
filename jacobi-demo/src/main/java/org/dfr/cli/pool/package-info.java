/** The {@code dfr pool} subcommands: start, look at and stop the pool of warm rank JVMs. */
package org.dfr.cli.pool;
