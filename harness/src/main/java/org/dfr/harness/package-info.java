/**
 * Runs any kernel as a job, knowing none: the run configuration ({@link org.dfr.harness.RunConfig}, which
 * names a kernel found through the kernel SPI), the embedded and processes runners
 * ({@link org.dfr.harness.Runner}, {@link org.dfr.harness.ProcessLauncher} and the rank process main),
 * result collection, reports with provenance, and campaigns ({@code org.dfr.harness.campaign}).
 */
package org.dfr.harness;
