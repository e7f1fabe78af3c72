/**
 * Running the 2D Jacobi solver on the resilient runtime: the run configuration, the embedded and
 * process launchers, and the run report (DESIGN.md's JSON).
 */
package org.dfr.harness;
