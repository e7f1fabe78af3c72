package org.dfr.power.meter;

/** The ratio {@code f / f_max} of the model: current frequency over the hardware maximum. */
public interface FrequencyRatioSource {

    /** @return {@code f / f_max} now, 0..1 */
    double ratio();

    /** @return where the ratio comes from, or why it is a constant */
    String description();

    /** @return a constant ratio with the reason it is constant */
    static FrequencyRatioSource constant(double ratio, String reason) {
        return new FrequencyRatioSource() {
            @Override
            public double ratio() {
                return ratio;
            }

            @Override
            public String description() {
                return "f/f_max = " + ratio + ": " + reason;
            }
        };
    }
}
