/**
 * Fault campaigns as checkers: {@link org.dfr.harness.campaign.TrialDraw} draws seeded trials (kernel,
 * sizes, strategy, spares, 1-3 failures of several {@link org.dfr.harness.campaign.FaultKind kinds}),
 * {@link org.dfr.harness.campaign.CampaignRunner} runs them in either mode and judges each by its digest,
 * its report ({@link org.dfr.harness.campaign.TrialChecker}), its time bound and leftover processes, and
 * {@link org.dfr.harness.campaign.CampaignFiles} writes every trial with the command that replays it.
 */
package org.dfr.harness.campaign;
