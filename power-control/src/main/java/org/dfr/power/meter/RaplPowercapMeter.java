package org.dfr.power.meter;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.regex.Pattern;
import org.dfr.power.sysfs.Sysfs;

/**
 * Energy from RAPL counters through powercap, on Intel and on AMD (which exposes the same
 * {@code intel-rapl} tree). The host's energy is the sum of the package zones plus their {@code dram}
 * subzones; {@code core} and {@code uncore} subzones are already inside their package and the
 * {@code psys} platform zone overlaps the packages, so they are left out. Each counter wraps at
 * {@code max_energy_range_uj}; a reading is corrected for at most one wrap per zone since the previous
 * reading, so read at least once per wrap period (minutes at full power).
 */
public final class RaplPowercapMeter implements PowerMeter {

    /** The powercap class directory. */
    public static final String POWERCAP = "sys/class/powercap";

    private static final Pattern PACKAGE = Pattern.compile("intel-rapl:\\d+");
    private static final Pattern SUBZONE = Pattern.compile("intel-rapl:\\d+:\\d+");

    private final Sysfs sysfs;
    private final List<RaplZone> zones;
    private final long[] zoneMicroJoules;
    private final long[] lastRaw;
    private long totalMicroJoules;

    private RaplPowercapMeter(Sysfs sysfs, List<RaplZone> zones) throws IOException {
        this.sysfs = sysfs;
        this.zones = List.copyOf(zones);
        this.lastRaw = new long[zones.size()];
        this.zoneMicroJoules = new long[zones.size()];
        for (int i = 0; i < lastRaw.length; i++) {
            lastRaw[i] = sysfs.readLong(zones.get(i).dir() + "/energy_uj");
        }
    }

    /**
     * Opens a meter on the zones {@code probe} found; the first reading is the baseline.
     *
     * @throws IOException when a counter cannot be read
     */
    public static RaplPowercapMeter open(Sysfs sysfs, RaplProbe probe) throws IOException {
        if (!probe.available()) {
            throw new IOException("RAPL is not available: " + probe.unavailableReason());
        }
        return new RaplPowercapMeter(sysfs, probe.zones());
    }

    /** @return the zones to count under {@code sysfs}, or the reason there are none */
    public static RaplProbe probe(Sysfs sysfs) {
        if (!sysfs.isDirectory(POWERCAP)) {
            return RaplProbe.unavailable("no powercap: " + sysfs.display(POWERCAP) + " does not exist (no"
                    + " intel_rapl driver; usual in a VM, where the RAPL registers are not passed through)");
        }
        List<RaplZone> zones = new ArrayList<>();
        List<String> notes = new ArrayList<>();
        try {
            List<String> packages = sysfs.list(POWERCAP).stream().filter(n -> PACKAGE.matcher(n).matches()).toList();
            if (packages.isEmpty()) {
                return RaplProbe.unavailable("no RAPL zone: " + sysfs.display(POWERCAP)
                        + " has no intel-rapl:N entry (entries: " + sysfs.list(POWERCAP) + ")");
            }
            for (String pkg : packages) {
                String dir = POWERCAP + "/" + pkg;
                String name = sysfs.read(dir + "/name");
                if (name.startsWith("psys")) {
                    notes.add(pkg + " (" + name + ") is the platform zone and overlaps the packages: not added");
                    continue;
                }
                zones.add(zone(sysfs, dir, name));
                for (String sub : sysfs.list(dir)) {
                    if (!SUBZONE.matcher(sub).matches()) {
                        continue;
                    }
                    String subName = sysfs.read(dir + "/" + sub + "/name");
                    if (subName.equals("dram")) {
                        zones.add(zone(sysfs, dir + "/" + sub, name + "/dram"));
                    } else {
                        notes.add(sub + " (" + subName + ") is inside " + name + ": not added");
                    }
                }
            }
        } catch (AccessDeniedException e) {
            return RaplProbe.unavailable("cannot read " + e.getFile() + ": permission denied (since Linux 5.10"
                    + " only root may read RAPL energy counters)");
        } catch (IOException e) {
            return RaplProbe.unavailable("cannot read the RAPL zones under " + sysfs.display(POWERCAP) + ": " + e);
        }
        if (zones.isEmpty()) {
            return RaplProbe.unavailable("no RAPL package zone under " + sysfs.display(POWERCAP) + " ("
                    + String.join("; ", notes) + ")");
        }
        return new RaplProbe(zones, notes, "");
    }

    private static RaplZone zone(Sysfs sysfs, String dir, String name) throws IOException {
        long max = sysfs.readLong(dir + "/max_energy_range_uj");
        sysfs.readLong(dir + "/energy_uj");
        return new RaplZone(dir, name, max);
    }

    /**
     * @return the energy in µJ between two raw readings of a counter that runs from 0 to
     *         {@code maxRange} inclusive, assuming at most one wrap in between
     */
    static long deltaMicroJoules(long previous, long current, long maxRange) {
        return current >= previous ? current - previous : (maxRange - previous) + current + 1;
    }

    public List<RaplZone> zones() {
        return zones;
    }

    @Override
    public EnergySource source() {
        return EnergySource.RAPL;
    }

    @Override
    public String description() {
        return "rapl: powercap counters "
                + String.join(" + ", zones.stream().map(z -> z.name() + " (" + sysfs.display(z.dir()) + ")").toList());
    }

    @Override
    public Map<String, Object> parameters() {
        Map<String, Object> parameters = new LinkedHashMap<>();
        parameters.put("zones", zones.stream().map(RaplZone::name).toList());
        return parameters;
    }

    @Override
    public synchronized OptionalDouble readEnergyJoules() throws IOException {
        readZones();
        return OptionalDouble.of(totalMicroJoules / 1e6);
    }

    /**
     * Reads every zone (domain) apart: package and DRAM stay separate.
     *
     * @return joules per zone since the meter was opened, in the order of {@link #zones()}
     */
    public synchronized double[] readZoneJoules() throws IOException {
        readZones();
        double[] out = new double[zoneMicroJoules.length];
        for (int i = 0; i < out.length; i++) {
            out[i] = zoneMicroJoules[i] / 1e6;
        }
        return out;
    }

    private void readZones() throws IOException {
        long[] raw = new long[lastRaw.length];
        for (int i = 0; i < lastRaw.length; i++) {
            raw[i] = sysfs.readLong(zones.get(i).dir() + "/energy_uj");
        }
        for (int i = 0; i < lastRaw.length; i++) {
            long delta = deltaMicroJoules(lastRaw[i], raw[i], zones.get(i).maxEnergyRangeMicroJoules());
            totalMicroJoules += delta;
            zoneMicroJoules[i] += delta;
            lastRaw[i] = raw[i];
        }
    }
}
