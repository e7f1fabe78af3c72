/** CSV files (Jackson CSV) and PNG plots (XChart) of a simulator sweep. */
package org.dfr.simulator.report;
